#if os(Linux)
import Foundation

/// `ASAuthorizationAppleIDCredential`: the result of Sign in with Apple. Send `identityToken` (with the raw nonce)
/// and `authorizationCode` to your server; `email` and `fullName` come only with an app's first authorization.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    /// The stable user identifier (the identity token's `sub`) for this app's team.
    open var user: String { grant.user }
    /// The request's `state`, unchanged.
    open var state: String? { grant.state }
    /// The scopes the user granted.
    open var authorizedScopes: [ASAuthorization.Scope] { grant.authorizedScopes }
    /// A single-use code (valid five minutes) the server exchanges at Apple's token endpoint.
    open var authorizationCode: Data? { grant.authorizationCode }
    /// The identity token (a JWT, UTF-8), signed by Apple: `iss`, `aud`, `sub`, `nonce`, `exp`...
    open var identityToken: Data? { grant.identityToken }
    /// The email the user shared (possibly a private relay address); first authorization only.
    open var email: String? { grant.email }
    /// The name the user shared; first authorization only.
    open var fullName: PersonNameComponents? { grant.fullName }
    /// Whether the user looks like a real person.
    open var realUserStatus: ASUserDetectionStatus { grant.realUserStatus }

    private let grant: LatchkeyAppleIDAuthorization

    init(_ grant: LatchkeyAppleIDAuthorization) {
        self.grant = grant
        super.init()
    }
}
#endif
