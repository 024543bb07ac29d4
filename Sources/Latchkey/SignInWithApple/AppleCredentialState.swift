import Foundation

/// What Apple says about a signed-in Apple ID, as `ASAuthorizationAppleIDProvider.CredentialState`.
public enum AppleCredentialState: Int, Sendable, Hashable, CaseIterable {
    case revoked = 0
    case authorized = 1
    case notFound = 2
    case transferred = 3
}

/// Asks Apple for the state of a user's credential. On Apple platforms
/// `ASAuthorizationAppleIDProvider` answers; tests and Linux use a stand-in.
public protocol AppleCredentialStateProvider: Sendable {
    func credentialState(forUserID userID: String) async throws -> AppleCredentialState
}

#if canImport(AuthenticationServices) && !os(Linux)
import AuthenticationServices

/// `ASAuthorizationAppleIDProvider` as an `AppleCredentialStateProvider`.
public struct SystemAppleCredentialStateProvider: AppleCredentialStateProvider {
    public init() {}
    public func credentialState(forUserID userID: String) async throws -> AppleCredentialState {
        let state = try await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID)
        return AppleCredentialState(rawValue: state.rawValue) ?? .notFound
    }
}
#endif
