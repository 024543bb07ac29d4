import COpenSSL
import Foundation

/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// True when `a` and `b` have the same length and the same bytes (OpenSSL `CRYPTO_memcmp`).
    /// Inputs of different lengths compare unequal (the length itself is not secret).
    public static func equals(_ a: some DataProtocol, _ b: some DataProtocol) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return ContiguousInput.with(a) { pa in
            ContiguousInput.with(b) { pb in
                CRYPTO_memcmp(ContiguousInput.pointer(pa), ContiguousInput.pointer(pb), pa.count) == 0
            }
        }
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

    /// Raw-pointer form used inside the module.
    static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return CRYPTO_memcmp(ContiguousInput.pointer(a), ContiguousInput.pointer(b), a.count) == 0
    }
}
