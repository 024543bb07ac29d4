import CryptoKit
import Foundation
import LatchkeyAuthCore

/// How a store binds an access-controlled item's key to the protection domains of one alternative of its access
/// control without their secrets, so adding the item asks nothing (as on Apple platforms): X25519 between a fresh
/// ephemeral key and each domain's sealing key (`AuthenticationContext.sealingKey(for:)`, the public half of
/// `ProtectionDomainKey`). Reading recomputes the same agreements from the domains' released secrets and the stored
/// ephemeral public key. The store derives its wrapping key from the agreements (with its own keys, the item's
/// identity and the ephemeral key), so neither the vault key nor the secrets alone open the item.
public enum GateAgreement {
    /// One alternative's agreements: the ephemeral public key to store, and the agreed secrets (one per domain, in the
    /// alternative's order), which the caller zeroes after deriving from them.
    public struct Sealing: Sendable {
        public var ephemeralKey: Data
        public var agreements: [Data]
    }

    /// A fresh ephemeral key agreed with each of `sealingKeys` (32-byte X25519 public keys).
    public static func seal(to sealingKeys: [Data]) throws(KeychainStoreError) -> Sealing {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        do {
            let agreements = try sealingKeys.map { key in
                try bytes(ephemeral.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: key)))
            }
            return Sealing(ephemeralKey: ephemeral.publicKey.rawRepresentation, agreements: agreements)
        } catch {
            throw KeychainStoreError(.internalComponent)
        }
    }

    /// The agreements `seal` made, from the domains' released `secrets` (in the alternative's order) and the stored
    /// ephemeral public key. A malformed ephemeral key is a damaged item (errSecDecode).
    public static func open(ephemeralKey: Data, secrets: [Data]) throws(KeychainStoreError) -> [Data] {
        let peer: Curve25519.KeyAgreement.PublicKey
        do { peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: ephemeralKey) } catch {
            throw KeychainStoreError(.decode, .corruptItem)
        }
        do {
            return try secrets.map { secret in
                try ProtectionDomainKey.withPrivateKey(secret: secret) { raw in
                    try bytes(Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw).sharedSecretFromKeyAgreement(with: peer))
                }
            }
        } catch {
            throw KeychainStoreError(.authFailed)
        }
    }

    private static func bytes(_ secret: SharedSecret) -> Data { secret.withUnsafeBytes { Data($0) } }
}
