import Foundation

/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// True when `a` and `b` have the same length and the same bytes. Inputs of different lengths compare unequal
    /// (the length itself is not secret).
    public static func equals(_ a: some DataProtocol, _ b: some DataProtocol) -> Bool {
        guard a.count == b.count else { return false }
        return ContiguousBytesInput.with(a) { pa in ContiguousBytesInput.with(b) { pb in equals(pa, pb) } }
    }

    /// Same as the generic form (fast path for `Data`).
    public static func equals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in equals(pa, pb) } }
    }

    /// True when `digest` has the bytes of `bytes` (constant time; `Digest`'s own `==`).
    public static func equals(_ digest: some Digest, _ bytes: some DataProtocol) -> Bool { digest == bytes }

    /// True when `bytes` are those of `digest` (constant time; `Digest`'s own `==`).
    public static func equals(_ bytes: some DataProtocol, _ digest: some Digest) -> Bool { digest == bytes }

    /// Raw-buffer form.
    public static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return CryptoBackend.constantTimeEquals(a, b)
    }
}
