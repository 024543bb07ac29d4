/// The kinds of P-256 key the engine makes: CryptoKit's `SecureEnclave.P256` has one per use, `Security`'s Secure
/// Enclave `SecKey` signs and agrees with one key (as Apple's does).
package enum TPMKeyKind: UInt8, Sendable, Hashable {
    /// ECDSA with SHA-256 (TPM2_Sign).
    case signing = 1
    /// ECDH (TPM2_ECDH_ZGen).
    case keyAgreement = 2
    /// Both: TPM2_Sign and TPM2_ECDH_ZGen (a key that signs and decrypts, with the null scheme).
    case signingAndKeyAgreement = 3

    /// Whether TPM2_Sign may use a key of this kind.
    package var signs: Bool { self != .keyAgreement }
    /// Whether TPM2_ECDH_ZGen may use a key of this kind.
    package var agrees: Bool { self != .signing }

    /// The kind as the C templates take it (`LATCHKEY_TPM_SIGNING`…).
    var template: Int32 { Int32(rawValue) }
}
