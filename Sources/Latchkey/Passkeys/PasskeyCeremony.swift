import Foundation
import LatchkeyWebAuthn

/// Runs the device side of a WebAuthn ceremony. On Apple platforms the system does it
/// (`ASAuthorizationPlatformPublicKeyCredentialProvider`); on Linux `SoftwareAuthenticator` does.
public protocol PasskeyCeremony: Sendable {
    func register(_ options: PublicKeyCredentialCreationOptions, origin: String) async throws -> RegistrationResponse
    func authenticate(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws -> AuthenticationResponse
}

/// The software authenticator's synchronous methods fulfil the ceremony as they are.
extension SoftwareAuthenticator: PasskeyCeremony {}
