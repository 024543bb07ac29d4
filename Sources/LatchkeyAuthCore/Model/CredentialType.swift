/// The kind of credential an app gives a context (`LACredentialType`), with Apple's raw values.
public enum CredentialType: Int, Sendable, Hashable, CaseIterable {
    /// An application password (`LACredentialType.applicationPassword`, 0): the key of `.applicationPassword`
    /// keychain items is derived from it.
    case applicationPassword = 0
    /// A smart-card PIN (`LACredentialType.smartCardPIN`, -3). Kept, used by nothing on Linux.
    case smartCardPIN = -3
}
