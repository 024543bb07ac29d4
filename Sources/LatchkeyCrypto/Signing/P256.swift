import Foundation

/// The NIST P-256 curve (secp256r1) with ECDSA over SHA-256 — CryptoKit's `P256`, on OpenSSL.
public enum P256: ECDSACurve {
    public static let parameters = ECDSACurveParameters(curve: .p256)
    public static let typeName = "P256"

    /// ECDSA signing and verification keys.
    public enum Signing {
        /// A P-256 private key. Its scalar lives only inside OpenSSL and is never printed.
        public typealias PrivateKey = ECDSA.PrivateKey<P256>
        /// A P-256 public key.
        public typealias PublicKey = ECDSA.PublicKey<P256>
        /// An ECDSA P-256 signature (raw r||s and DER).
        public typealias ECDSASignature = ECDSA.Signature<P256>
    }
}
