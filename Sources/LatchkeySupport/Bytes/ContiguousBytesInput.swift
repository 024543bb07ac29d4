import Foundation

/// Gives C calls and byte loops a contiguous view of any `DataProtocol` value, copying only when it is not contiguous.
///
/// Public and inlinable so that the generic public entry points of the package's `CryptoKit` module — themselves
/// `@inlinable` — are specialized in their callers' modules: unspecialized, each call looked up `Result` and
/// `Optional` metadata for its types (about a third of an AES-GCM seal of 1 KiB, measured with callgrind).
public enum ContiguousBytesInput {
    /// Calls `body` with the bytes of `data`. The pointer may be nil only when the count is zero.
    @inlinable
    public static func with<D: DataProtocol, R, E: Error>(
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
}
