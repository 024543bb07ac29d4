import Foundation
import LatchkeyWebAuthn

/// One existing-account request: which credentials to offer, in one sheet.
public struct ExistingAccountRequest: Sendable {
    /// Sign in with Apple (for an app the Apple ID already signed in to), with the request's nonce and state; nil:
    /// not offered.
    public var appleID: AppleIDAuthorizationRequest?
    /// A password saved for the app's website.
    public var offersPasswords: Bool
    /// A passkey of the relying party, with the server's options; nil: not offered.
    public var passkey: PublicKeyCredentialRequestOptions?
    /// The relying party of the passkey request (the options' `rpId`, else the server's host).
    public var relyingPartyID: String

    public init(appleID: AppleIDAuthorizationRequest?, offersPasswords: Bool, passkey: PublicKeyCredentialRequestOptions?,
                relyingPartyID: String) {
        self.appleID = appleID
        self.offersPasswords = offersPasswords
        self.passkey = passkey
        self.relyingPartyID = relyingPartyID
    }
}

/// The credential the user picked in the existing-account sheet.
public enum ExistingAccountCredential: Sendable, CustomStringConvertible {
    /// Sign in with Apple.
    case appleID(AppleIDAuthorization)
    /// A saved password (`ASPasswordCredential`). The password is never printed.
    case password(user: String, password: String)
    /// A passkey's assertion.
    case passkey(AuthenticationResponse)

    public var description: String {
        switch self {
        case .appleID(let authorization): "appleID(\(authorization))"
        case .password(let user, _): "password(user: \(user))"
        case .passkey: "passkey"
        }
    }
}

/// Shows the existing-account sheet: `SystemExistingAccountAuthorizer` (`ASAuthorizationController` with
/// `preferImmediatelyAvailableCredentials`), or a stand-in in tests. Throws `AuthorizationCeremonyError` (`.canceled`
/// when the user closes the sheet or nothing is available).
public protocol ExistingAccountAuthorizing: Sendable {
    func authorize(_ request: ExistingAccountRequest) async throws -> ExistingAccountCredential
}
