import Foundation
import LatchkeySupport

/// Byte views for C calls: any `DataProtocol` value made contiguous, and a non-null pointer for an empty buffer.
package enum ContiguousInput {
    /// Calls `body` with the bytes of `data` (LatchkeySupport's `ContiguousBytesInput`).
    @inlinable
    package static func with<D: DataProtocol, R, E: Error>(
        _ data: D, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try ContiguousBytesInput.with(data, body)
    }

    /// A non-null pointer for `buffer` (OpenSSL treats NULL as "not given" in some calls, even with length 0).
    @inlinable
    package static func pointer(_ buffer: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        buffer.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)  // a static NUL byte
    }
}
