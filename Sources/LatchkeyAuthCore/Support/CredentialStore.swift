import LatchkeySupport

/// The credentials set on one context (`LAContext.setCredential(_:type:)`), held as `Passcode`s, whose
/// memory is zeroed when they are released. Never logged or described.
package final class CredentialStore: Sendable {
    private let values = Locked<[CredentialType: Passcode]>([:])

    package init() {}

    /// Sets (or, with nil, removes) the credential of `type`.
    package func set(_ credential: Passcode?, for type: CredentialType) {
        values.withLock { $0[type] = credential }
    }

    package func contains(_ type: CredentialType) -> Bool { values.withLock { $0[type] != nil } }

    /// The credential of `type`; `.notInteractive` when none was set.
    package func get(_ type: CredentialType) throws(AuthenticationError) -> Passcode {
        guard let credential = values.withLock({ $0[type] }) else { throw .notInteractive }
        return credential
    }

    package func removeAll() { values.withLock { $0.removeAll() } }
}
