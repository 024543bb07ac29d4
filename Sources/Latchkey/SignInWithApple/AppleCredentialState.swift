import Foundation
import LatchkeySupport

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

#if canImport(AuthenticationServices)
import AuthenticationServices

/// `ASAuthorizationAppleIDProvider` as an `AppleCredentialStateProvider` (on Linux, the `AuthenticationServices`
/// module's Apple ID authority).
public struct SystemAppleCredentialStateProvider: AppleCredentialStateProvider {
    public init() {}
    public func credentialState(forUserID userID: String) async throws -> AppleCredentialState {
        let state = try await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID)
        return AppleCredentialState(rawValue: state.rawValue) ?? .notFound
    }
}

/// Signs the user out each time `ASAuthorizationAppleIDProvider.credentialRevokedNotification` is posted, until it is
/// released, `cancel()` is called, or `AppleSignIn.forgetUser()` ends it.
public final class AppleCredentialRevocationObservation: @unchecked Sendable { // set once in init; the token goes back to its center once, under `observing`
    private let center: NotificationCenter
    private let token: any NSObjectProtocol
    private let observing = Locked(true)
    private weak var apple: AppleSignIn?

    init(center: NotificationCenter, apple: AppleSignIn) {
        self.center = center
        self.apple = apple
        token = center.addObserver(forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil,
                                   queue: nil) { _ in
            Task { await apple.handleCredentialRevoked() }
        }
        let id = ObjectIdentifier(self)
        apple.observationCancellers.withLock { $0[id] = { [weak self] in self?.stop() } }
    }

    /// Stops observing.
    public func cancel() {
        stop()
        let id = ObjectIdentifier(self)
        apple?.observationCancellers.withLock { _ = $0.removeValue(forKey: id) }
    }

    private func stop() {
        let wasObserving = observing.withLock { observing in
            defer { observing = false }
            return observing
        }
        if wasObserving { center.removeObserver(token) }
    }

    deinit { cancel() }
}

extension AppleSignIn {
    /// Observes `credentialRevokedNotification` (the user stopped using Sign in with Apple with this app while it
    /// runs): each one signs the user out. Keep the observation for as long as the app runs.
    public func observeCredentialRevocation(center: NotificationCenter = .default) -> AppleCredentialRevocationObservation {
        AppleCredentialRevocationObservation(center: center, apple: self)
    }
}
#endif
