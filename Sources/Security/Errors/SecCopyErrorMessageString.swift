#if os(Linux)
import Foundation

/// `SecCopyErrorMessageString`: a human-readable message for a result code. Codes without a known
/// message read "OSStatus <n>" (Apple answers similarly for unknown codes). `reserved` is ignored.
@available(macOS 10.3, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    (securityErrorMessages[status] ?? trustErrorMessages[status] ?? "OSStatus \(status)") as NSString
}
#endif
