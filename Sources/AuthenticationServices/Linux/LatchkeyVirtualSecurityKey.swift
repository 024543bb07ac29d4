#if os(Linux)
import Foundation
import LatchkeyWebAuthn

/// Linux only: a security key in software (like a browser's virtual authenticator): P-256 credentials, `none`
/// attestation, a signature counter that counts, user presence by being there. Attach one with
/// `LatchkeyAuthenticationServicesConfiguration.securityKey`.
public final class LatchkeyVirtualSecurityKey: Sendable {
    let store: any SoftwareCredentialStore
    let aaguid: Data
    /// Whether the key can verify the user (a PIN or fingerprint): sets the UV flag when asked to.
    public let verifiesUser: Bool

    /// A key whose credentials live in `store` (memory by default: they go when the process ends, as the key does
    /// when it is unplugged).
    public init(store: any SoftwareCredentialStore = InMemorySoftwareCredentialStore(), aaguid: Data = Data(count: 16),
                verifiesUser: Bool = true) {
        self.store = store
        self.aaguid = aaguid
        self.verifiesUser = verifiesUser
    }
}
#endif
