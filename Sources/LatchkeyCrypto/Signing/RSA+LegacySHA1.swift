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
        var ok = false
        let out = data.withUnsafeBytes { input in
            DataOutput.make(count: 20) { out in
                ok = EVP_Digest(input.baseAddress, input.count, out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil,
                                EVP_sha1(), nil) == 1
            }
        }
        return ok ? out : Data()
    }
}

extension RSA.Signing.PublicKey {
    /// True when `signature` is an RSASSA-PKCS1-v1_5 signature with SHA-1 of `data` (COSE RS1; see ``LegacySHA1``).
    public func isValidLegacySHA1Signature(_ signature: Data, for data: Data) -> Bool {
        guard signature.count == modulus.count else { return false }
        return EVPSignature.verify(key, md: EVP_sha1(), signature: signature, data: data) {
            EVP_PKEY_CTX_set_rsa_padding($0, RSA_PKCS1_PADDING) == 1
        }
    }
}
