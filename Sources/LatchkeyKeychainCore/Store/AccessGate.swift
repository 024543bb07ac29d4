import Foundation
import LatchkeyAuthCore

/// Obtains the secrets an access control needs from an authentication context, and maps the context's
/// errors to keychain statuses. Used by every store, so MemoryStore and FileVault agree on the codes:
/// no context / not evaluated → errSecInteractionNotAllowed; cancel or fallback → errSecUserCanceled;
/// failed match, lockout, invalidated context → errSecAuthFailed.
public enum AccessGate {
    /// The secrets of every domain of every alternative (needed to seal a new item: each alternative gets a key).
    public static func secretsForSealing(_ ac: AccessControl, context: (any AuthenticationContext)?) throws(KeychainStoreError) -> [[Data]] {
        let alternatives = try ac.alternatives()
        guard let context else { throw KeychainStoreError(.interactionNotAllowed, .authenticationRequired(ac.flags)) }
        var out: [[Data]] = []
        for alt in alternatives {
            var secrets: [Data] = []
            for domain in alt {
                do { secrets.append(try context.releaseSecret(for: domain)) } catch { throw map(error, flags: ac.flags) }
            }
            out.append(secrets)
        }
        return out
    }

    /// The first alternative whose domains the context releases, with their secrets (to open an item).
    public static func secretsForOpening(_ ac: AccessControl, context: (any AuthenticationContext)?) throws(KeychainStoreError) -> (index: Int, secrets: [Data]) {
        let alternatives = try ac.alternatives()
        guard let context else { throw KeychainStoreError(.interactionNotAllowed, .authenticationRequired(ac.flags)) }
        var firstError: AuthenticationError?
        for (index, alt) in alternatives.enumerated() {
            var secrets: [Data] = []
            var failed = false
            for domain in alt {
                do { secrets.append(try context.releaseSecret(for: domain)) } catch {
                    if firstError == nil || firstError == .notInteractive { firstError = error }
                    failed = true
                    break
                }
            }
            if !failed { return (index, secrets) }
        }
        throw map(firstError ?? .notInteractive, flags: ac.flags)
    }

    /// Maps an authentication error to the status a keychain read reports.
    public static func map(_ error: AuthenticationError, flags: AccessControlFlags) -> KeychainStoreError {
        switch error {
        case .notInteractive: KeychainStoreError(.interactionNotAllowed, .authenticationRequired(flags))
        case .userCancel, .appCancel, .systemCancel, .userFallback: KeychainStoreError(.userCanceled)
        case .authenticationFailed, .biometryLockout, .invalidContext, .biometryNotEnrolled, .biometryNotAvailable,
             .passcodeNotSet: KeychainStoreError(.authFailed)
        }
    }

    package static func shouldEvaluate(_ error: KeychainStoreError, context: (any AuthenticationContext)?, ui: AuthenticationUI) -> Bool {
        guard ui == .allow, context != nil, error.status == .interactionNotAllowed,
              case .authenticationRequired = error.reason else { return false }
        return context?.interactionNotAllowed == false
    }

    package static func evaluate(_ context: (any AuthenticationContext)?, for error: KeychainStoreError, prompt: String?) async throws(KeychainStoreError) {
        guard let context, case let .authenticationRequired(flags) = error.reason else { throw error }
        let policy = AccessControl(accessibility: .whenUnlocked, flags: flags).policy
        do {
            try await context.evaluate(policy, reason: prompt ?? "")
        } catch {
            throw map(error, flags: flags)
        }
    }
}
