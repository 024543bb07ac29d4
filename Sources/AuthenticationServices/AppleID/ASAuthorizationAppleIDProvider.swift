#if os(Linux)
import Foundation

/// `ASAuthorizationAppleIDProvider`: Sign in with Apple requests and the state of a signed-in Apple ID.
///
/// Linux backing: `LatchkeyAuthenticationServicesConfiguration.appleIDAuthority`, the stand-in for the device's Apple
/// ID and appleid.apple.com (`LatchkeyLoopbackAppleIDAuthority` talks to `latchkey apple-stand-in`).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationAppleIDProvider: NSObject, ASAuthorizationProvider {
    /// `ASAuthorizationAppleIDProvider.CredentialState`.
    public enum CredentialState: Int, Sendable, Hashable {
        /// The user stopped using Sign in with Apple with this app: sign them out.
        case revoked = 0
        /// Still signed in.
        case authorized = 1
        /// Apple does not know this user for this app: sign them out.
        case notFound = 2
        /// The app moved to another team: the user identifier must be migrated.
        case transferred = 3
    }

    /// Posted when the user revokes Sign in with Apple for this app while it runs. Linux has no Settings app to revoke
    /// from, so nothing posts it by itself: a test or a tool posts it to play that part; the revocation itself is
    /// seen by `credentialState(forUserID:)` (`latchkey apple-stand-in`'s `POST /dev/revoke`).
    public static let credentialRevokedNotification =
        NSNotification.Name("ASAuthorizationAppleIDProviderCredentialRevokedNotification")

    public override init() { super.init() }

    /// A new Sign in with Apple request.
    open func createRequest() -> ASAuthorizationAppleIDRequest { ASAuthorizationAppleIDRequest(provider: self) }

    /// The state of `userID`'s credential, to `completion` on another thread.
    open func getCredentialState(forUserID userID: String,
                                 completion: @escaping @Sendable (CredentialState, (any Error)?) -> Void) {
        Task.detached {
            let result: Result<CredentialState, any Error>
            do { result = .success(try await ASAuthorizationAppleIDProvider.credentialState(of: userID)) } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let state): completion(state, nil)
            case .failure(let error): completion(.notFound, error)
            }
        }
    }

    /// The state of `userID`'s credential.
    open func credentialState(forUserID userID: String) async throws -> CredentialState {
        try await Self.credentialState(of: userID)
    }

    static func credentialState(of userID: String) async throws -> CredentialState {
        guard let authority = LatchkeyAuthenticationServicesConfiguration.appleIDAuthority else {
            throw ASAuthorizationError(.unknown, reason: LatchkeyAuthenticationServicesConfiguration.noAppleIDReason)
        }
        return try await authority.credentialState(forUserID: userID)
    }
}
#endif
