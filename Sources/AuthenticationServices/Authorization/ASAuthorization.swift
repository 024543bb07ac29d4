#if os(Linux)
import Foundation

/// `ASAuthorization`: a successful authorization, handed to
/// `authorizationController(controller:didCompleteWithAuthorization:)`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorization: NSObject {
    /// The provider whose request succeeded.
    open var provider: any ASAuthorizationProvider { authorizationProvider }
    /// The credential: `ASAuthorizationAppleIDCredential`, `ASAuthorizationPlatformPublicKeyCredentialRegistration`...
    open var credential: any ASAuthorizationCredential { authorizationCredential }

    private let authorizationProvider: any ASAuthorizationProvider
    private let authorizationCredential: any ASAuthorizationCredential

    init(provider: any ASAuthorizationProvider, credential: any ASAuthorizationCredential) {
        authorizationProvider = provider
        authorizationCredential = credential
        super.init()
    }
}

extension ASAuthorization {
    /// `ASAuthorization.Scope` (`ASAuthorizationScope`): contact information an Apple ID request asks for.
    public struct Scope: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The user's full name.
        public static let fullName = Scope(rawValue: "full_name")
        /// The user's email address (possibly a private relay address).
        public static let email = Scope(rawValue: "email")
    }

    /// `ASAuthorization.OpenIDOperation` (`ASAuthorizationOpenIDOperation`): what an OpenID request does.
    public struct OpenIDOperation: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Sign-in or sign-up, whichever applies (the default).
        public static let operationImplicit = OpenIDOperation(rawValue: "")
        /// Sign in.
        public static let operationLogin = OpenIDOperation(rawValue: "login")
        /// Refresh the credential.
        public static let operationRefresh = OpenIDOperation(rawValue: "refresh")
        /// Sign out.
        public static let operationLogout = OpenIDOperation(rawValue: "logout")
    }
}
#endif
