#if os(Linux)
import Foundation

/// `SecCopyErrorMessageString`: a human-readable message for a result code. Codes without a known
/// message read "OSStatus <n>" (Apple answers similarly for unknown codes). `reserved` is ignored.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    (securityErrorMessages[status] ?? trustErrorMessages[status] ?? "OSStatus \(status)") as NSString
}
#endif
