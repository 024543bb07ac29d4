import Foundation
import LatchkeyTPM
import LocalAuthentication

/// A representation of a device's hardware-based key manager. On Linux the keys live in a TPM 2.0
/// (`LatchkeySecureEnclaveConfiguration` says which); the private keys are made and used inside it and never leave it.
@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
public enum SecureEnclave: Sendable {}

@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
extension SecureEnclave {
    /// Whether a TPM answers: the one `LATCHKEY_TPM_TCTI` names, else `/dev/tpmrm0` (false without either).
    public static var isAvailable: Bool {
        if case .success = TPMEngine.probe(LatchkeySecureEnclaveConfiguration.selection) { return true }
        return false
    }

    /// The elliptic curve that enables NIST P-256 signatures and key agreement within the Secure Enclave.
    public enum P256: Sendable {
        /// A mechanism used to create or verify a cryptographic signature using the NIST P-256 elliptic curve
        /// digital signature algorithm (ECDSA) within the Secure Enclave.
        public enum Signing: Sendable {
            /// A P-256 private key used to create cryptographic signatures, kept in the Secure Enclave.
            public struct PrivateKey: Sendable {
                let key: SecureEnclaveKey

                /// The corresponding public key.
                public let publicKey: CryptoKit.P256.Signing.PublicKey
                /// The key's blob: opens only in the TPM that made it (it is not the private key).
                public let dataRepresentation: Data

                /// Restores a key from its `dataRepresentation`; uses of the key authenticate with `authenticationContext`.
                @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, *)
                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
                    try self.init(SecureEnclaveKey(kind: .signing, dataRepresentation: dataRepresentation,
                                                   context: authenticationContext))
                }

                /// A new key usable without authentication (Apple's default access control,
                /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` with no flags). With `Security` imported, the
                /// `init(compactRepresentable:accessControl:authenticationContext:)` form takes an access control.
                @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, *)
                public init(compactRepresentable: Bool = true, authenticationContext: LAContext? = nil) throws {
                    try self.init(compactRepresentable: compactRepresentable, latchkeyAccess: .unconstrained,
                                  authenticationContext: authenticationContext)
                }

                /// A new key with `access` (what `Security`'s `SecAccessControl` form passes).
                package init(compactRepresentable: Bool, latchkeyAccess access: SecureEnclaveAccess,
                             authenticationContext: LAContext?) throws {
                    try self.init(SecureEnclaveKey(kind: .signing, compactRepresentable: compactRepresentable,
                                                   access: access, context: authenticationContext))
                }

                private init(_ key: SecureEnclaveKey) throws {
                    self.key = key
                    publicKey = try CryptoKit.P256.Signing.PublicKey(x963Representation: key.x963PublicKey)
                    dataRepresentation = key.dataRepresentation
                }
            }
        }

        /// A mechanism used to create a shared secret between two users by performing NIST P-256 elliptic curve
        /// Diffie Hellman (ECDH) key exchange within the Secure Enclave.
        public enum KeyAgreement: Sendable {
            /// A P-256 private key used for key agreement, kept in the Secure Enclave.
            public struct PrivateKey: Sendable {
                let key: SecureEnclaveKey

                /// The corresponding public key.
                public let publicKey: CryptoKit.P256.KeyAgreement.PublicKey
                /// The key's blob: opens only in the TPM that made it (it is not the private key).
                public let dataRepresentation: Data

                /// Restores a key from its `dataRepresentation`; uses of the key authenticate with `authenticationContext`.
                @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, *)
                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
                    try self.init(SecureEnclaveKey(kind: .keyAgreement, dataRepresentation: dataRepresentation,
                                                   context: authenticationContext))
                }

                /// A new key usable without authentication (Apple's default access control); with `Security` imported,
                /// the `init(compactRepresentable:accessControl:authenticationContext:)` form takes an access control.
                @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, *)
                public init(compactRepresentable: Bool = true, authenticationContext: LAContext? = nil) throws {
                    try self.init(compactRepresentable: compactRepresentable, latchkeyAccess: .unconstrained,
                                  authenticationContext: authenticationContext)
                }

                /// A new key with `access` (what `Security`'s `SecAccessControl` form passes).
                package init(compactRepresentable: Bool, latchkeyAccess access: SecureEnclaveAccess,
                             authenticationContext: LAContext?) throws {
                    try self.init(SecureEnclaveKey(kind: .keyAgreement, compactRepresentable: compactRepresentable,
                                                   access: access, context: authenticationContext))
                }

                private init(_ key: SecureEnclaveKey) throws {
                    self.key = key
                    publicKey = try CryptoKit.P256.KeyAgreement.PublicKey(x963Representation: key.x963PublicKey)
                    dataRepresentation = key.dataRepresentation
                }
            }
        }
    }
}

@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
extension SecureEnclave.P256.Signing.PrivateKey {
    /// Generates an ECDSA signature over a SHA-256 digest, in the TPM.
    public func signature<D>(for digest: D) throws -> P256.Signing.ECDSASignature where D: Digest {
        guard D.byteCount == SHA256.byteCount else { throw CryptoKitError.incorrectParameterSize }
        return try P256.Signing.ECDSASignature(rawRepresentation: key.signature(digest: Data(digest)))
    }
}

@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
extension SecureEnclave.P256.Signing.PrivateKey {
    /// Generates an ECDSA signature over data (hashed with SHA-256), in the TPM.
    public func signature<D>(for data: D) throws -> P256.Signing.ECDSASignature where D: DataProtocol {
        try signature(for: SHA256.hash(data: data))
    }
}

@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
extension SecureEnclave.P256.KeyAgreement.PrivateKey: DiffieHellmanKeyAgreement {
    /// Computes a shared secret with the provided public key from another party, in the TPM.
    public func sharedSecretFromKeyAgreement(with publicKeyShare: P256.KeyAgreement.PublicKey) throws -> SharedSecret {
        SharedSecret(secret: try key.sharedSecret(peer: publicKeyShare.x963Representation))
    }

    public typealias PublicKey = P256.KeyAgreement.PublicKey
}
