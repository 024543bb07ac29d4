import Foundation

/// The NIST P-384 curve (secp384r1) with ECDSA over SHA-384 — CryptoKit's `P384`, on OpenSSL.
public enum P384: ECDSACurve {
    public static let parameters = ECDSACurveParameters(curve: .p384)
    public static let typeName = "P384"

    /// ECDSA signing and verification keys.
    public enum Signing {
        /// A P-384 private key. Its scalar lives only inside OpenSSL and is never printed.
        public typealias PrivateKey = ECDSA.PrivateKey<P384>
        /// A P-384 public key.
        public typealias PublicKey = ECDSA.PublicKey<P384>
        /// An ECDSA P-384 signature (raw r||s and DER).
        public typealias ECDSASignature = ECDSA.Signature<P384>
    }
}
