#if os(Linux)
import Foundation

/// `ASAuthorizationCredential`: what a successful authorization carries. Apple's protocol also refines `NSCopying`
/// and `NSSecureCoding`; the Linux credentials are immutable values and do not archive.
public protocol ASAuthorizationCredential: NSObjectProtocol {}
#endif
