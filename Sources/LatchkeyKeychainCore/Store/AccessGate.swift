import Foundation
import LatchkeyAuthCore

/// Obtains what an access control needs from an authentication context — the domain secrets of its constraints and
/// the application password — and maps the context's errors to keychain statuses. Used by every store, so they
/// agree on the codes: no context / not evaluated / no application password → errSecInteractionNotAllowed (the
/// caller may evaluate and retry, see `KeychainStoreError.accessRequirement`); cancel or fallback →
/// errSecUserCanceled; failed match, lockout, invalidated context, wrong application password → errSecAuthFailed.
public enum AccessGate {
    /// The sealing keys of every domain of every alternative (each alternative of a new item gets a key agreed with
    /// its domains' keys, `GateAgreement`). A device's context hands them out without prompting, so adding asks
    /// nothing; a context that knows a domain only after evaluating it answers errSecInteractionNotAllowed
    /// (`.authenticationRequiredToSeal`, naming what to evaluate). An access control none of whose alternatives can be
    /// proven here (a companion) gets none: it never opens.
    public static func keysForSealing(_ ac: AccessControl, context: (any AuthenticationContext)?) throws(KeychainStoreError) -> [[Data]] {
        let alternatives = try ac.alternatives()
        if alternatives.isEmpty { return [] }
        guard let context else { throw KeychainStoreError(.interactionNotAllowed, .authenticationRequiredToSeal(ac.flags)) }
        var out: [[Data]] = []
        for alt in alternatives {
            var keys: [Data] = []
            for domain in alt {
                do { keys.append(try context.sealingKey(for: domain)) } catch {
                    throw map(error, toSeal: true, flags: ac.flags)
                }
            }
            out.append(keys)
        }
        return out
    }

    /// The first alternative whose domains the context releases, with their secrets (to open an item).
    /// errSecAuthFailed (`.unsupportedAccessControl`) when no alternative can be proven here.
    public static func secretsForOpening(_ ac: AccessControl, context: (any AuthenticationContext)?) throws(KeychainStoreError) -> (index: Int, secrets: [Data]) {
        let alternatives = try ac.alternatives()
        if alternatives.isEmpty { throw KeychainStoreError(.authFailed, .unsupportedAccessControl) }
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

    /// The value a store keeps for an item with access control `ac`: sealed under the application password when
    /// `ac` has `.applicationPassword` (the context must hold it), else `value` itself.
    public static func storedValue(_ value: Data, _ ac: AccessControl?, context: (any AuthenticationContext)?,
                                   kdf: ApplicationPasswordKDF) throws(KeychainStoreError) -> Data {
        guard let ac, ac.requiresApplicationPassword else { return value }
        let password = try applicationPassword(ac, context: context, toSeal: true)
        return try ApplicationPasswordSeal.seal(value, password: password, kdf: kdf)
    }

    /// The value of an item from what the store keeps (`storedValue`): opened with the context's application
    /// password when `ac` has `.applicationPassword`.
    public static func value(stored: Data, _ ac: AccessControl?, context: (any AuthenticationContext)?) throws(KeychainStoreError) -> Data {
        guard let ac, ac.requiresApplicationPassword else { return stored }
        let password = try applicationPassword(ac, context: context, toSeal: false)
        return try ApplicationPasswordSeal.open(stored, password: password)
    }

    /// The stored value after an update from access control `old` to `new` (`storedValue` of the new plaintext):
    /// a new value is sealed as `new` asks; an unchanged value is kept as it is when neither or both have an
    /// application password (no password needed), else opened or sealed with the context's password.
    public static func restoredValue(_ stored: Data, newValue: Data?, from old: AccessControl?, to new: AccessControl?,
                                     context: (any AuthenticationContext)?, kdf: ApplicationPasswordKDF) throws(KeychainStoreError) -> Data {
        if let newValue { return try storedValue(newValue, new, context: context, kdf: kdf) }
        let before = old?.requiresApplicationPassword ?? false, after = new?.requiresApplicationPassword ?? false
        if before == after { return stored }
        var plain = try value(stored: stored, old, context: context)
        defer { plain.resetBytes(in: 0..<plain.count) }
        return try storedValue(plain, new, context: context, kdf: kdf)
    }

    private static func applicationPassword(_ ac: AccessControl, context: (any AuthenticationContext)?,
                                            toSeal: Bool) throws(KeychainStoreError) -> Passcode {
        // Sealing needs only the password (the domains' sealing keys need no evaluation); opening needs everything.
        let needed = KeychainStoreError(.interactionNotAllowed, toSeal ? .authenticationRequiredToSeal(.applicationPassword)
                                                                       : .authenticationRequired(ac.flags))
        guard let context else { throw needed }
        do {
            return try context.credential(.applicationPassword)
        } catch .notInteractive {
            throw needed
        } catch {
            throw map(error, toSeal: toSeal, flags: ac.flags)
        }
    }

    /// Maps an authentication error to the status a keychain read reports.
    public static func map(_ error: AuthenticationError, flags: AccessControlFlags) -> KeychainStoreError {
        map(error, toSeal: false, flags: flags)
    }

    private static func map(_ error: AuthenticationError, toSeal: Bool, flags: AccessControlFlags) -> KeychainStoreError {
        switch error {
        case .notInteractive:
            KeychainStoreError(.interactionNotAllowed, toSeal ? .authenticationRequiredToSeal(flags) : .authenticationRequired(flags))
        case .userCancel, .appCancel, .systemCancel, .userFallback: KeychainStoreError(.userCanceled)
        case .authenticationFailed, .biometryLockout, .invalidContext, .biometryNotEnrolled, .biometryNotAvailable,
             .passcodeNotSet: KeychainStoreError(.authFailed)
        }
    }

    package static func shouldEvaluate(_ error: KeychainStoreError, context: (any AuthenticationContext)?, ui: AuthenticationUI) -> Bool {
        guard ui == .allow, let context, error.accessRequirement != nil else { return false }
        return !context.interactionNotAllowed
    }

    /// Evaluates what `error` says is missing (`KeychainStoreError.accessRequirement`): the prompts follow the
    /// access control's constraints, and the application password is asked for when none is set.
    package static func evaluate(_ context: (any AuthenticationContext)?, for error: KeychainStoreError, prompt: String?) async throws(KeychainStoreError) {
        guard let context, let requirement = error.accessRequirement else { throw error }
        let flags: AccessControlFlags = switch error.reason {
        case let .authenticationRequired(flags), let .authenticationRequiredToSeal(flags): flags
        default: []
        }
        do {
            try await context.evaluate(requirement, reason: prompt ?? "")
        } catch {
            throw map(error, flags: flags)
        }
    }
}
