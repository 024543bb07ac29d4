import Foundation
import LatchkeyWebAuthn

/// Runs the device side of a WebAuthn ceremony: `PlatformPasskeyCeremony` (the system's passkeys, through
/// `ASAuthorizationController`) or `SoftwareAuthenticator` (a passkey in this process's keychain).
public protocol PasskeyCeremony: Sendable {
    /// The origin this ceremony writes into the client data for `relyingPartyID` when the app talks to `serverURL`:
    /// the server's own origin by default; `https://<relying party id>` for an app's platform passkeys.
    func origin(relyingPartyID: String, serverURL: URL) -> String
    func register(_ options: PublicKeyCredentialCreationOptions, origin: String) async throws -> RegistrationResponse
    func authenticate(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws -> AuthenticationResponse
    /// A sign-in offered in the username field's suggestions (conditional mediation); by default the same as
    /// `authenticate`.
    func authenticateWithAutoFill(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws
        -> AuthenticationResponse
}

extension PasskeyCeremony {
    public func origin(relyingPartyID: String, serverURL: URL) -> String { Self.serverOrigin(serverURL) }

    public func authenticateWithAutoFill(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws
        -> AuthenticationResponse {
        try await authenticate(options, origin: origin)
    }

    /// `scheme://host[:port]` of `url` (`http://localhost:8080` for a local server).
    static func serverOrigin(_ url: URL) -> String {
        var text = "\(url.scheme ?? "http")://\(url.host ?? "localhost")"
        if let port = url.port { text += ":\(port)" }
        return text
    }
}

/// The software authenticator's synchronous methods fulfil the ceremony as they are; it reports the server's origin.
extension SoftwareAuthenticator: PasskeyCeremony {}
