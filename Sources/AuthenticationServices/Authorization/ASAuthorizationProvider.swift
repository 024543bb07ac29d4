#if os(Linux)
import Foundation

/// `ASAuthorizationProvider`: what makes authorization requests (Apple ID, platform passkeys, security keys).
public protocol ASAuthorizationProvider: NSObjectProtocol {}
#endif
