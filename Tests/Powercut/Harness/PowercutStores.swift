/// Every store the harness cuts (a new store: a file under Stores/ and one line here).
package enum PowercutStores {
    package static let all: [(name: String, make: @Sendable () -> any PowercutStore)] = [
        ("file-vault", { FileVaultPowercut() }),
        ("vault-migration", { VaultMigrationPowercut() }),
        ("accounts", { AccountsPowercut() }),
        ("refresh-tokens", { RefreshTokensPowercut() }),
        ("passkeys", { PasskeysPowercut() }),
        ("apple-identities", { AppleIdentitiesPowercut() }),
        ("signing-keys", { SigningKeysPowercut() }),
        ("account-deletion", { AccountDeletionPowercut() }),
        ("apple-revocations", { AppleRevocationsPowercut() }),
        ("app-attest", { AppAttestPowercut() }),
    ]

    /// The stores `POWERCUT_STORES` names (comma-separated), or all.
    package static func selected(_ filter: String?) -> [(name: String, make: @Sendable () -> any PowercutStore)] {
        guard let filter, !filter.isEmpty else { return all }
        let names = Set(filter.split(separator: ",").map(String.init))
        return all.filter { names.contains($0.name) }
    }
}
