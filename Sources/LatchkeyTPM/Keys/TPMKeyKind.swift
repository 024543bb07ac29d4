/// The two kinds of P-256 key the engine makes, as CryptoKit's `SecureEnclave.P256` has them.
package enum TPMKeyKind: UInt8, Sendable, Hashable {
    /// ECDSA with SHA-256 (TPM2_Sign).
    case signing = 1
    /// ECDH (TPM2_ECDH_ZGen).
    case keyAgreement = 2

    var isKeyAgreement: Int32 { self == .keyAgreement ? 1 : 0 }
}
