import COpenSSL
import Foundation

/// SHA-1, for verifying what legacy hardware signs and nothing else.
///
/// Some TPMs (Windows Hello on older machines) sign their WebAuthn attestation with RS1: RSASSA-PKCS1-v1_5
/// over SHA-1 (COSE algorithm -65535, listed in the WebAuthn registry for exactly this use). SHA-1 is not a
/// member of ``HashAlgorithm`` on purpose, so it cannot be chosen for anything new — no HMAC, KDF or token
/// signature; it exists only as this digest and the verification below, both by OpenSSL.
public enum LegacySHA1 {
    /// The SHA-1 digest of `data` (20 bytes; FIPS 180-4).
    public static func hash(_ data: Data) -> Data {
        data.withUnsafeBytes { HashAlgorithm.digest($0, md: EVP_sha1(), count: 20) }
    }
}

extension RSA.Signing.PublicKey {
    /// True when `signature` is an RSASSA-PKCS1-v1_5 signature with SHA-1 of `data` (COSE RS1; see ``LegacySHA1``).
    public func isValidLegacySHA1Signature(_ signature: Data, for data: Data) -> Bool {
        guard signature.count == modulus.count else { return false }
        // PKCS#1 v1.5 padding takes no hash parameter of its own; the digest is `md`.
        return EVPSignature.verify(key, md: EVP_sha1(), signature: signature, data: data) {
            RSA.Signing.configure($0, padding: .pkcs1v15, hash: .sha256)
        }
    }
}
