import CSodium
import Foundation
import LatchkeySupport

/// Makes `Data` results without an extra copy: the C call writes into a fresh heap buffer that the `Data`
/// then owns (`Data(bytesNoCopy:deallocator: .free)` is the cheapest way to build a `Data` from C output).
package enum DataOutput {
    /// Allocates `count` bytes, lets `body` fill all of them, and returns them as `Data`.
    /// If `body` throws, the bytes are zeroed and freed, so no partial output (e.g. unauthenticated plaintext) survives.
    @inline(__always)
    package static func make<E: Error>(count: Int, _ body: (UnsafeMutableRawBufferPointer) throws(E) -> Void) throws(E) -> Data {
        guard count > 0, let raw = malloc(count) else {
            try body(UnsafeMutableRawBufferPointer(start: nil, count: 0))
            return Data()
        }
        do {
            try body(UnsafeMutableRawBufferPointer(start: raw, count: count))
        } catch {
            sodium_memzero(raw, count)
            free(raw)
            throw error
        }
        return Data(bytesNoCopy: raw, count: count, deallocator: .free)
    }
}
