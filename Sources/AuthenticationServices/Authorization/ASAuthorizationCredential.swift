#if os(Linux)
import Foundation

/// `ASAuthorizationCredential`: what a successful authorization carries. Apple's protocol also refines `NSCopying`
/// and `NSSecureCoding`; the Linux credentials are immutable values and do not archive.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}
#endif
