import Foundation

/// `withUnsafeBytes` of `Data` / `[UInt8]` for a body with a typed error (theirs is `rethrows`, so untyped).
@inline(__always)
package func withTypedBytes<B: ContiguousBytes, R, E: Error>(of bytes: B, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    let result: Result<R, E> = bytes.withUnsafeBytes { raw in
        do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
    }
    return try result.get()
}
