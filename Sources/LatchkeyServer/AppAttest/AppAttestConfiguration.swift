import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// What App Attest verification accepts, and which requests must carry an assertion.
public struct AppAttestConfiguration: Sendable {
    /// The apps whose keys are accepted (`TEAMID.bundle.id`; the RP ID hash is SHA-256 of one of them). An app and its
    /// App Clip or extensions are separate app IDs.
    public var appIDs: [AppleAppID]
    /// The environment the apps' entitlement names: its AAGUID is required (`appattestdevelop` / `appattest`).
    public var environment: AppAttestEnvironment
    /// Certificates an attestation's chain may end at: Apple's App Attestation Root CA, plus others (a development
    /// attestation authority's root, `latchkey serve --app-attest-root`).
    public var trustAnchors: [Certificate]
    /// Seconds a challenge of `POST /v1/app-attest/challenge` stays usable (default 300).
    public var challengeLifetime: Int64
    /// What each protected operation asks of its requests (`off` when not listed).
    public var policies: [AppAttestProtectedOperation: AppAttestPolicy]
    /// Attested keys whose verification key is kept ready in memory (0: none).
    public var keyCacheCapacity: Int

    public init(appIDs: [AppleAppID], environment: AppAttestEnvironment = .production,
                trustAnchors: [Certificate] = AppAttestRoots.apple, challengeLifetime: Int64 = 300,
                policies: [AppAttestProtectedOperation: AppAttestPolicy] = [.signUp: .report, .tokenRefresh: .report],
                keyCacheCapacity: Int = 4096) {
        self.appIDs = appIDs
        self.environment = environment
        self.trustAnchors = trustAnchors
        self.challengeLifetime = challengeLifetime
        self.policies = policies
        self.keyCacheCapacity = keyCacheCapacity
    }

    /// The policy of one operation.
    public func policy(for operation: AppAttestProtectedOperation) -> AppAttestPolicy { policies[operation] ?? .off }
}

/// What a protected route does with the `X-App-Attest-Assertion` header.
public enum AppAttestPolicy: String, Sendable, Hashable, CaseIterable {
    /// The header is ignored.
    case off
    /// A present header is verified and its outcome logged and audited; the request is served either way (a rollout
    /// step: see how many requests would fail before requiring it).
    case report
    /// The request is served only with a valid assertion; without one it is answered 403 naming the failed step.
    case require
}

/// The routes that can require an App Attest assertion.
public enum AppAttestProtectedOperation: String, Sendable, Hashable, CaseIterable {
    /// `POST /v1/accounts`.
    case signUp = "sign-up"
    /// `POST /v1/token`.
    case tokenRefresh = "token-refresh"

    /// The route's method and path.
    public var route: (method: String, path: String) {
        switch self {
        case .signUp: ("POST", "/v1/accounts")
        case .tokenRefresh: ("POST", "/v1/token")
        }
    }
}
