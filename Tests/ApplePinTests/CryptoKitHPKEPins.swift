#if canImport(CryptoKit)
import CryptoKit
import Foundation

// Apple's CryptoKit HPKE and KEM API (iOS 17 / macOS 14, the package's floor), pinned as CryptoKitPins.swift pins the
// rest: HPKE's ciphersuites and their parts, `HPKE.Sender` / `HPKE.Recipient` in the four modes, the errors, the KEM
// protocols and the HPKE conformances of the key-agreement keys (the iOS 18.4 SDK's CryptoKit.swiftinterface), plus
// the digests' and codes' `description`. `CryptoKitMetaError` and `CorecryptoCurveType` are not pinned: the iOS 18.4
// SDK declares them, the iOS 18.0 SDK (the oldest the package admits) does not (check-pins exempts them). No pin
// requires `Sendable`: the iOS 18.0 SDK declares none of these Sendable (the 18.4 SDK does;
// docs/apple-sdk/CryptoKit.tsv). A generic parameter's instance method is pinned through a closure's typed parameter,
// as in CryptoKitPins.swift.

/// Pins of CryptoKit's HPKE (compiled, not run).
enum CryptoKitHPKEPins {
    static func ciphersuites() {
        let _: [HPKE.KEM] = [HPKE.KEM.P256_HKDF_SHA256, HPKE.KEM.P384_HKDF_SHA384, HPKE.KEM.P521_HKDF_SHA512,
                             HPKE.KEM.Curve25519_HKDF_SHA256] + HPKE.KEM.allCases
        let _: [HPKE.KDF] = [HPKE.KDF.HKDF_SHA256, HPKE.KDF.HKDF_SHA384, HPKE.KDF.HKDF_SHA512] + HPKE.KDF.allCases
        let _: [HPKE.AEAD] = [HPKE.AEAD.AES_GCM_128, HPKE.AEAD.AES_GCM_256, HPKE.AEAD.chaChaPoly, HPKE.AEAD.exportOnly]
            + HPKE.AEAD.allCases
        pinHashable(HPKE.KEM.self)
        pinHashable(HPKE.KDF.self)
        pinHashable(HPKE.AEAD.self)
        let _: [HPKE.Ciphersuite] = [HPKE.Ciphersuite.P256_SHA256_AES_GCM_256, HPKE.Ciphersuite.P384_SHA384_AES_GCM_256,
                                     HPKE.Ciphersuite.P521_SHA512_AES_GCM_256, HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly]
        let _: (HPKE.KEM, HPKE.KDF, HPKE.AEAD) -> HPKE.Ciphersuite = HPKE.Ciphersuite.init(kem:kdf:aead:)
        let _: KeyPath<HPKE.Ciphersuite, HPKE.KEM> = \HPKE.Ciphersuite.kem
        let _: KeyPath<HPKE.Ciphersuite, HPKE.KDF> = \HPKE.Ciphersuite.kdf
        let _: KeyPath<HPKE.Ciphersuite, HPKE.AEAD> = \HPKE.Ciphersuite.aead
        pinType(HPKE.DHKEM.self)
        pinError(HPKE.Errors.self)
        pinHashable(HPKE.Errors.self)
        let _: [HPKE.Errors] = [HPKE.Errors.inconsistentParameters, HPKE.Errors.inconsistentCiphersuiteAndKey,
                                HPKE.Errors.exportOnlyMode, HPKE.Errors.inconsistentPSKInputs, HPKE.Errors.expectedPSK,
                                HPKE.Errors.unexpectedPSK, HPKE.Errors.outOfRangeSequenceNumber,
                                HPKE.Errors.ciphertextTooShort]
    }

    static func senderAndRecipient() {
        typealias Key = Curve25519.KeyAgreement.PrivateKey
        typealias PublicKey = Curve25519.KeyAgreement.PublicKey
        let _: (PublicKey, HPKE.Ciphersuite, Data) throws -> HPKE.Sender = HPKE.Sender.init(recipientKey:ciphersuite:info:)
        let _: (PublicKey, HPKE.Ciphersuite, Data, SymmetricKey, Data) throws -> HPKE.Sender =
            HPKE.Sender.init(recipientKey:ciphersuite:info:presharedKey:presharedKeyIdentifier:)
        let _: (PublicKey, HPKE.Ciphersuite, Data, Key) throws -> HPKE.Sender =
            HPKE.Sender.init(recipientKey:ciphersuite:info:authenticatedBy:)
        let _: (PublicKey, HPKE.Ciphersuite, Data, Key, SymmetricKey, Data) throws -> HPKE.Sender =
            HPKE.Sender.init(recipientKey:ciphersuite:info:authenticatedBy:presharedKey:presharedKeyIdentifier:)
        let _: KeyPath<HPKE.Sender, Data> = \HPKE.Sender.encapsulatedKey
        let _: (HPKE.Sender) -> (Data, Int) throws -> SymmetricKey = HPKE.Sender.exportSecret(context:outputByteCount:)
        let _ = { (sender: inout HPKE.Sender, message: Data, aad: Data) throws in
            _ = try sender.seal(message, authenticating: aad)
            _ = try sender.seal(message)
        }

        let _: (Key, HPKE.Ciphersuite, Data, Data) throws -> HPKE.Recipient =
            HPKE.Recipient.init(privateKey:ciphersuite:info:encapsulatedKey:)
        let _: (Key, HPKE.Ciphersuite, Data, Data, SymmetricKey, Data) throws -> HPKE.Recipient =
            HPKE.Recipient.init(privateKey:ciphersuite:info:encapsulatedKey:presharedKey:presharedKeyIdentifier:)
        let _: (Key, HPKE.Ciphersuite, Data, Data, PublicKey) throws -> HPKE.Recipient =
            HPKE.Recipient.init(privateKey:ciphersuite:info:encapsulatedKey:authenticatedBy:)
        let _: (Key, HPKE.Ciphersuite, Data, Data, PublicKey, SymmetricKey, Data) throws -> HPKE.Recipient =
            HPKE.Recipient.init(privateKey:ciphersuite:info:encapsulatedKey:authenticatedBy:presharedKey:presharedKeyIdentifier:)
        let _: (HPKE.Recipient) -> (Data, Int) throws -> SymmetricKey = HPKE.Recipient.exportSecret(context:outputByteCount:)
        let _ = { (recipient: inout HPKE.Recipient, ciphertext: Data, aad: Data) throws in
            _ = try recipient.open(ciphertext, authenticating: aad)
            _ = try recipient.open(ciphertext)
        }
    }

    static func keys() {
        func publicKey<PK: HPKEDiffieHellmanPublicKey>(_: PK.Type) {
            let _: (Data, HPKE.KEM) throws -> PK = PK.init(_:kem:)
            let _: (PK) -> (HPKE.KEM) throws -> Data = { (key: PK) in key.hpkeRepresentation(kem:) }
            let _: PK.EphemeralPrivateKey.Type = PK.EphemeralPrivateKey.self
        }
        func privateKey<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_: SK.Type) {
            let _: () -> SK = SK.init
            let _: KeyPath<SK, SK.PublicKey> = \SK.publicKey
            let _: (SK) -> (SK.PublicKey) throws -> SharedSecret =
                { (key: SK) in key.sharedSecretFromKeyAgreement(with:) }
        }
        func serialization<S: HPKEPublicKeySerialization>(_: S.Type) {
            let _: (Data, HPKE.KEM) throws -> S = S.init(_:kem:)
            let _: (S) -> (HPKE.KEM) throws -> Data = { (key: S) in key.hpkeRepresentation(kem:) }
        }
        func recipientKey<SK: HPKEDiffieHellmanPrivateKey>(_: SK.Type) {}
        publicKey(P256.KeyAgreement.PublicKey.self)
        publicKey(P384.KeyAgreement.PublicKey.self)
        publicKey(P521.KeyAgreement.PublicKey.self)
        publicKey(Curve25519.KeyAgreement.PublicKey.self)
        privateKey(P256.KeyAgreement.PrivateKey.self)
        privateKey(P384.KeyAgreement.PrivateKey.self)
        privateKey(P521.KeyAgreement.PrivateKey.self)
        privateKey(Curve25519.KeyAgreement.PrivateKey.self)
        serialization(P256.KeyAgreement.PublicKey.self)
        recipientKey(P256.KeyAgreement.PrivateKey.self)
        recipientKey(SecureEnclave.P256.KeyAgreement.PrivateKey.self)
        // Each key's own members (the protocols' requirements are pinned above).
        let _: () -> P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey.init
        let _: () -> P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey.init
        let _: () -> P521.KeyAgreement.PrivateKey = P521.KeyAgreement.PrivateKey.init
        let _: (Data, HPKE.KEM) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(_:kem:)
        let _: (Data, HPKE.KEM) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(_:kem:)
        let _: (Data, HPKE.KEM) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(_:kem:)
        let _: (Data, HPKE.KEM) throws -> Curve25519.KeyAgreement.PublicKey = Curve25519.KeyAgreement.PublicKey.init(_:kem:)
        let _: (P256.KeyAgreement.PublicKey) -> (HPKE.KEM) throws -> Data = P256.KeyAgreement.PublicKey.hpkeRepresentation(kem:)
        let _: (P384.KeyAgreement.PublicKey) -> (HPKE.KEM) throws -> Data = P384.KeyAgreement.PublicKey.hpkeRepresentation(kem:)
        let _: (P521.KeyAgreement.PublicKey) -> (HPKE.KEM) throws -> Data = P521.KeyAgreement.PublicKey.hpkeRepresentation(kem:)
        let _: (Curve25519.KeyAgreement.PublicKey) -> (HPKE.KEM) throws -> Data =
            Curve25519.KeyAgreement.PublicKey.hpkeRepresentation(kem:)
        let _: P256.KeyAgreement.PrivateKey.Type = P256.KeyAgreement.PublicKey.EphemeralPrivateKey.self
        let _: P384.KeyAgreement.PrivateKey.Type = P384.KeyAgreement.PublicKey.EphemeralPrivateKey.self
        let _: P521.KeyAgreement.PrivateKey.Type = P521.KeyAgreement.PublicKey.EphemeralPrivateKey.self
        let _: Curve25519.KeyAgreement.PrivateKey.Type = Curve25519.KeyAgreement.PublicKey.EphemeralPrivateKey.self
        // Apple's interface has `HPKEEphemeralPrivateKey` for P-256, P-521 and Curve25519 (not P-384).
        let _: P256.KeyAgreement.PrivateKey.Type = P256.KeyAgreement.PublicKey.HPKEEphemeralPrivateKey.self
        let _: P521.KeyAgreement.PrivateKey.Type = P521.KeyAgreement.PublicKey.HPKEEphemeralPrivateKey.self
        let _: Curve25519.KeyAgreement.PrivateKey.Type = Curve25519.KeyAgreement.PublicKey.HPKEEphemeralPrivateKey.self
    }

    static func keyEncapsulation() {
        let _: (SymmetricKey, Data) -> KEM.EncapsulationResult = KEM.EncapsulationResult.init(sharedSecret:encapsulated:)
        let _: KeyPath<KEM.EncapsulationResult, SymmetricKey> = \KEM.EncapsulationResult.sharedSecret
        let _: KeyPath<KEM.EncapsulationResult, Data> = \KEM.EncapsulationResult.encapsulated
        func kemPublicKey<PK: KEMPublicKey>(_: PK.Type) {
            let _: (PK) -> () throws -> KEM.EncapsulationResult = { (key: PK) in key.encapsulate }
        }
        func kemPrivateKey<SK: KEMPrivateKey>(_: SK.Type) {
            let _: () throws -> SK = SK.generate
            let _: (SK) -> (Data) throws -> SymmetricKey = { (key: SK) in key.decapsulate(_:) }
            let _: KeyPath<SK, SK.PublicKey> = \SK.publicKey
            kemPublicKey(SK.PublicKey.self)
        }
    }

    static func remainingDeclarations() {
        // The digests and codes print their bytes: "SHA256 digest: …", "HMAC with SHA256: …".
        let _: (SHA256Digest) -> (inout Hasher) -> Void = SHA256Digest.hash(into:)
        let _: KeyPath<SHA256Digest, String> = \SHA256Digest.description
        let _: KeyPath<HashedAuthenticationCode<SHA256>, String> = \HashedAuthenticationCode<SHA256>.description
    }
}
#endif
