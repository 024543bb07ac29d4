import Foundation
import LatchkeySupport
#if os(Linux)
import LatchkeyOpenSSL
#else
import CryptoKit
#endif

/// The key pair a protection domain seals with: an X25519 private key derived (HKDF-SHA256) from the domain's secret,
/// and its public key. Whoever holds the public key can seal an item to the domain without any authentication, as
/// Apple adds access-controlled items without asking; only the secret — released by an evaluation covering the
/// domain — gives the private key that opens it.
///
/// On Linux the engine under the Linux `CryptoKit` (OpenSSL) derives it, because that `CryptoKit` sits above
/// `LocalAuthentication` (see `AuthRandom`); elsewhere Apple's CryptoKit. The same bytes either way (RFC 5869, RFC 7748).
public enum ProtectionDomainKey {
    private static let label = Data("latchkey protection-domain X25519 v1".utf8)

    /// Calls `body` with the 32 bytes of the X25519 private key of the domain whose secret is `secret`; the bytes are
    /// zeroed when `body` returns.
    public static func withPrivateKey<R>(secret: Data, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        #if os(Linux)
        let seed = try secret.withUnsafeBytes { ikm in
            try label.withUnsafeBytes { info in
                try HKDFEngine.deriveKey(ikm: ikm, salt: UnsafeRawBufferPointer(start: nil, count: 0), info: info,
                                         outputByteCount: 32, digest: .sha256)
            }
        }
        return try seed.withBytes(body)
        #else
        let seed = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), salt: Data(), info: label,
                                          outputByteCount: 32)
        return try seed.withUnsafeBytes(body)
        #endif
    }

    /// The public key (32 bytes) of the domain whose secret is `secret`.
    public static func publicKey(secret: Data) throws -> Data {
        try withPrivateKey(secret: secret) { raw in
            #if os(Linux)
            try EdwardsCurve.x25519.rawPublic(of: EdwardsCurve.x25519.privateKey(raw: raw))
            #else
            try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw).publicKey.rawRepresentation
            #endif
        }
    }
}
