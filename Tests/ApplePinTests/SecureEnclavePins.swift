#if canImport(CryptoKit) && canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import CryptoKit
import Foundation
import LocalAuthentication
import Security

// CryptoKit's `SecureEnclave` (CryptoKit.swiftinterface, iOS 18.0 and 18.4 SDKs; iOS 13 / macOS 10.15), pinned as in
// CryptoKitPins.swift: the enum and its key types are Sendable from the 18.4 SDK (not pinned: 18.0's are not); the
// initializers take Security's `SecAccessControl` and LocalAuthentication's `LAContext`, so this file imports both, as
// code that passes them does.
// The Linux module declares `init(compactRepresentable:accessControl:authenticationContext:)` in `Security` (which sits
// above its CryptoKit); the calls below with Apple's defaults compile against both.

/// Pins of CryptoKit's SecureEnclave (compiled, not run).
enum SecureEnclavePins {
    static func secureEnclave() {
        let _: Bool = SecureEnclave.isAvailable

        let _: (Data, LAContext?) throws -> SecureEnclave.P256.Signing.PrivateKey =
            SecureEnclave.P256.Signing.PrivateKey.init(dataRepresentation:authenticationContext:)
        let _: (Bool, SecAccessControl, LAContext?) throws -> SecureEnclave.P256.Signing.PrivateKey =
            SecureEnclave.P256.Signing.PrivateKey.init(compactRepresentable:accessControl:authenticationContext:)
        let _: KeyPath<SecureEnclave.P256.Signing.PrivateKey, P256.Signing.PublicKey> = \SecureEnclave.P256.Signing.PrivateKey.publicKey
        let _: KeyPath<SecureEnclave.P256.Signing.PrivateKey, Data> = \SecureEnclave.P256.Signing.PrivateKey.dataRepresentation
        let _: (SecureEnclave.P256.Signing.PrivateKey) -> (Data) throws -> P256.Signing.ECDSASignature =
            SecureEnclave.P256.Signing.PrivateKey.signature(for:)
        let _: (SecureEnclave.P256.Signing.PrivateKey) -> (SHA256.Digest) throws -> P256.Signing.ECDSASignature =
            SecureEnclave.P256.Signing.PrivateKey.signature(for:)

        let _: (Data, LAContext?) throws -> SecureEnclave.P256.KeyAgreement.PrivateKey =
            SecureEnclave.P256.KeyAgreement.PrivateKey.init(dataRepresentation:authenticationContext:)
        let _: (Bool, SecAccessControl, LAContext?) throws -> SecureEnclave.P256.KeyAgreement.PrivateKey =
            SecureEnclave.P256.KeyAgreement.PrivateKey.init(compactRepresentable:accessControl:authenticationContext:)
        let _: KeyPath<SecureEnclave.P256.KeyAgreement.PrivateKey, P256.KeyAgreement.PublicKey> =
            \SecureEnclave.P256.KeyAgreement.PrivateKey.publicKey
        let _: KeyPath<SecureEnclave.P256.KeyAgreement.PrivateKey, Data> = \SecureEnclave.P256.KeyAgreement.PrivateKey.dataRepresentation
        let _: (SecureEnclave.P256.KeyAgreement.PrivateKey) -> (P256.KeyAgreement.PublicKey) throws -> SharedSecret =
            SecureEnclave.P256.KeyAgreement.PrivateKey.sharedSecretFromKeyAgreement(with:)
        let _: SecureEnclave.P256.KeyAgreement.PrivateKey.PublicKey.Type = P256.KeyAgreement.PublicKey.self
        func agreement<K: DiffieHellmanKeyAgreement>(_: K.Type) {}
        agreement(SecureEnclave.P256.KeyAgreement.PrivateKey.self)

        // Apple's defaults: every argument of the creating initializer may be left out.
        let _ = { (context: LAContext, access: SecAccessControl, blob: Data) throws in
            _ = try SecureEnclave.P256.Signing.PrivateKey()
            _ = try SecureEnclave.P256.Signing.PrivateKey(compactRepresentable: false)
            _ = try SecureEnclave.P256.Signing.PrivateKey(authenticationContext: context)
            _ = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            _ = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            _ = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: access, authenticationContext: context)
            _ = try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: blob)
        }
    }
}
#endif
