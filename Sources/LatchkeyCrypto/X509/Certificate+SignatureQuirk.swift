import Foundation

/// The early-U2F signature encoding quirk.
///
/// A certificate's `signatureValue` is a BIT STRING whose first content octet counts the unused bits of
/// its last octet. A signature is whole octets, so X.509 encoders write 0. Attestation certificates of
/// some early, widely sold U2F security keys (Yubico's first U2F batches, whose leaves its RSA root signs:
/// `03 82 01 01 03 …`, a 256-octet signature said to leave 3 bits unused) declare a non-zero count; the
/// octets after it are the real signature, and the bits declared unused are zero. OpenSSL 3 parses such
/// a certificate but refuses to verify any signature whose BIT STRING declares unused bits
/// (`ASN1_R_INVALID_BIT_STRING_BITS_LEFT`), so the chain check fails with X509_V_ERR_CERT_SIGNATURE_FAILURE
/// ("certificate signature failure"); other verifiers accept it. Yubico's own libraries fix the same byte
/// to 0 for a list of known certificates before OpenSSL verifies them; here the shape decides, and the
/// signature is verified all the same.
extension Certificate {
    /// Parses `der`; when, and only when, it has the quirk exactly — the outer
    /// `SEQUENCE { tbsCertificate SEQUENCE, signatureAlgorithm SEQUENCE, signatureValue BIT STRING }`
    /// with the BIT STRING declaring 1…7 unused bits that are all zero — the platform's verifier is given
    /// the same bytes with that one count octet set to 0. Nothing else changes: the TBSCertificate bytes,
    /// the algorithm and the signature octets are the original ones, so the verifier checks the real
    /// signature over the original TBS bytes with the issuer's key, and the rest of the chain check
    /// (issuer to root, validity, CA flags, extensions) runs as for any certificate. A wrong signature, a
    /// changed TBS or another issuer is still refused. `derRepresentation` is `der` as given, and every
    /// accessor reads it.
    ///
    /// Use it only where the quirk is known to occur (fido-u2f attestation leaves); everywhere else use
    /// `init(derRepresentation:)`, under which such a certificate's signature never verifies.
    public convenience init(derRepresentationToleratingUnusedSignatureBits der: Data) throws(CryptoError) {
        let fields = try Self.parse(der)
        guard fields.signatureUnusedBits != 0 else {
            self.init(fields: fields, derRepresentation: der, verificationDER: der)
            return
        }
        // The BIT STRING ends the certificate: its contents are the unused-bits octet and the signature.
        var repaired = der
        repaired[repaired.endIndex - fields.signature.count - 1] = 0
        self.init(fields: fields, derRepresentation: der, verificationDER: repaired)
    }

    /// Whether the certificate's DER has the early-U2F quirk: its signature BIT STRING declares 1…7
    /// (zero) unused bits. (The parse refuses any other non-zero count, and declared bits that are not zero.)
    public var declaresUnusedSignatureBits: Bool { fields.signatureUnusedBits != 0 }
}
