import COpenSSL
import Foundation
import LatchkeySupport

/// Comparisons whose running time does not depend on where the inputs differ (OpenSSL `CRYPTO_memcmp`).
package enum MemoryCompare {
    /// True when `a` and `b` have the same length and the same bytes. Inputs of different lengths compare unequal
    /// (the length itself is not secret).
    package static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return CRYPTO_memcmp(ContiguousInput.pointer(a), ContiguousInput.pointer(b), a.count) == 0
    }

    /// The same for any two collections of bytes (copied only when not contiguous).
    package static func equals(_ a: some DataProtocol, _ b: some DataProtocol) -> Bool {
        guard a.count == b.count else { return false }
        return ContiguousInput.with(a) { pa in ContiguousInput.with(b) { pb in equals(pa, pb) } }
    }
}
