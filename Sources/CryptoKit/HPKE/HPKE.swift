import Foundation
import LatchkeyOpenSSL

/// Hybrid Public Key Encryption (RFC 9180): a sender encrypts messages to a recipient's public key through a key
/// encapsulation mechanism, a key schedule and an AEAD, in the four modes of the RFC (base, PSK, auth, auth PSK).
///
/// Linux: composed over this module's key agreement (OpenSSL ECDH / X25519), HKDF (OpenSSL's extract and expand
/// steps under RFC 9180's labels) and AEADs (OpenSSL AES-GCM and ChaCha20-Poly1305); OpenSSL 3.0 has no HPKE API.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
public enum HPKE: Sendable {}

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension HPKE {
    /// The key encapsulation mechanisms (RFC 9180 §7.1: DHKEM over a curve with its HKDF).
    @available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
    public enum KEM: CaseIterable, Hashable, Sendable {
        /// DHKEM(P-256, HKDF-SHA256), 0x0010.
        case P256_HKDF_SHA256
        /// DHKEM(P-384, HKDF-SHA384), 0x0011.
        case P384_HKDF_SHA384
        /// DHKEM(P-521, HKDF-SHA512), 0x0012.
        case P521_HKDF_SHA512
        /// DHKEM(X25519, HKDF-SHA256), 0x0020.
        case Curve25519_HKDF_SHA256

        /// The registry value (`kem_id`).
        var identifier: UInt16 {
            switch self {
            case .P256_HKDF_SHA256: 0x0010
            case .P384_HKDF_SHA384: 0x0011
            case .P521_HKDF_SHA512: 0x0012
            case .Curve25519_HKDF_SHA256: 0x0020
            }
        }

        /// The KDF inside the KEM.
        var kdf: KDF {
            switch self {
            case .P256_HKDF_SHA256, .Curve25519_HKDF_SHA256: .HKDF_SHA256
            case .P384_HKDF_SHA384: .HKDF_SHA384
            case .P521_HKDF_SHA512: .HKDF_SHA512
            }
        }

        /// `Nsecret`: the length of the shared secret.
        var sharedSecretByteCount: Int {
            switch self {
            case .P256_HKDF_SHA256, .Curve25519_HKDF_SHA256: 32
            case .P384_HKDF_SHA384: 48
            case .P521_HKDF_SHA512: 64
            }
        }

        /// `suite_id` of the KEM's own derivations: "KEM" ‖ I2OSP(kem_id, 2).
        var suiteIdentifier: [UInt8] { Array("KEM".utf8) + HPKE.bigEndian(identifier) }
    }

    /// The key derivation functions (RFC 9180 §7.2).
    public enum KDF: CaseIterable, Hashable, Sendable {
        /// HKDF-SHA256, 0x0001.
        case HKDF_SHA256
        /// HKDF-SHA384, 0x0002.
        case HKDF_SHA384
        /// HKDF-SHA512, 0x0003.
        case HKDF_SHA512

        /// The registry value (`kdf_id`).
        var identifier: UInt16 {
            switch self {
            case .HKDF_SHA256: 0x0001
            case .HKDF_SHA384: 0x0002
            case .HKDF_SHA512: 0x0003
            }
        }

        /// The hash behind the HKDF.
        var digest: OpenSSLDigest {
            switch self {
            case .HKDF_SHA256: .sha256
            case .HKDF_SHA384: .sha384
            case .HKDF_SHA512: .sha512
            }
        }
    }

    /// The AEADs (RFC 9180 §7.3), and the export-only mode that encrypts nothing.
    public enum AEAD: CaseIterable, Hashable, Sendable {
        /// AES-128-GCM, 0x0001.
        case AES_GCM_128
        /// AES-256-GCM, 0x0002.
        case AES_GCM_256
        /// ChaCha20-Poly1305, 0x0003.
        case chaChaPoly
        /// Export-only, 0xFFFF: the context only exports secrets (`exportSecret`); sealing and opening throw
        /// `HPKE.Errors.exportOnlyMode`.
        case exportOnly

        /// The registry value (`aead_id`).
        var identifier: UInt16 {
            switch self {
            case .AES_GCM_128: 0x0001
            case .AES_GCM_256: 0x0002
            case .chaChaPoly: 0x0003
            case .exportOnly: 0xFFFF
            }
        }

        /// `Nk`; 0 for export-only.
        var keyByteCount: Int {
            switch self {
            case .AES_GCM_128: 16
            case .AES_GCM_256, .chaChaPoly: 32
            case .exportOnly: 0
            }
        }

        /// The engine's cipher; nil for export-only.
        var cipher: AEADCipher? {
            switch self {
            case .AES_GCM_128, .AES_GCM_256: .aesGCM
            case .chaChaPoly: .chaChaPoly
            case .exportOnly: nil
            }
        }

        /// `Nn` (12 for every AEAD here).
        static let nonceByteCount = AEADEngine.nonceByteCount
        /// `Nt` (16 for every AEAD here).
        static let tagByteCount = AEADEngine.tagByteCount
    }

    /// A KEM, a KDF and an AEAD.
    public struct Ciphersuite: Sendable {
        /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
        public static let P256_SHA256_AES_GCM_256 = Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_256)
        /// DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-256-GCM.
        public static let P384_SHA384_AES_GCM_256 = Ciphersuite(kem: .P384_HKDF_SHA384, kdf: .HKDF_SHA384, aead: .AES_GCM_256)
        /// DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-256-GCM.
        public static let P521_SHA512_AES_GCM_256 = Ciphersuite(kem: .P521_HKDF_SHA512, kdf: .HKDF_SHA512, aead: .AES_GCM_256)
        /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305.
        public static let Curve25519_SHA256_ChachaPoly = Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256,
                                                                     aead: .chaChaPoly)

        /// The key encapsulation mechanism.
        public let kem: KEM
        /// The key derivation function of the key schedule.
        public let kdf: KDF
        /// The AEAD (or export-only).
        public let aead: AEAD

        /// A ciphersuite of any KEM, KDF and AEAD.
        public init(kem: KEM, kdf: KDF, aead: AEAD) {
            self.kem = kem
            self.kdf = kdf
            self.aead = aead
        }

        /// `suite_id` of the key schedule: "HPKE" ‖ I2OSP(kem_id, 2) ‖ I2OSP(kdf_id, 2) ‖ I2OSP(aead_id, 2).
        var identifier: [UInt8] {
            Array("HPKE".utf8) + HPKE.bigEndian(kem.identifier) + HPKE.bigEndian(kdf.identifier)
                + HPKE.bigEndian(aead.identifier)
        }
    }

    /// I2OSP(value, 2).
    static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}
