#if os(Linux)
import Foundation

/// `ASAuthorizationProvider`: what makes authorization requests (Apple ID, platform passkeys, security keys).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationProvider: NSObjectProtocol {}
#endif
