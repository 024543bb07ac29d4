import Foundation
import LatchkeySupport

/// Gives C calls a contiguous view of any `DataProtocol` value, copying only when it is not contiguous. Inlinable, so
/// each caller's module specializes it (unspecialized, every call looked up `Result` and `Optional` metadata).
package enum ContiguousInput {
    /// Calls `body` with the bytes of `data`. The pointer may be nil only when the count is zero.
    @inlinable
    package static func with<D: DataProtocol, R, E: Error>(
        _ data: D, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E>? = data.withContiguousStorageIfAvailable { buffer in
            do throws(E) {
                return .success(try body(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        let copy = [UInt8](data)
        return try copy.withUnsafeBytes { buffer -> Result<R, E> in
            do throws(E) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// A non-null pointer for `buffer` (OpenSSL treats NULL as "not given" in some calls, even with length 0).
    @inlinable
    package static func pointer(_ buffer: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        buffer.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)  // a static NUL byte
    }
}
