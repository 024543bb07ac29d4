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
    /// with the BIT STRING declaring 1…7 unused bits that are all zero — OpenSSL's object is parsed from
    /// the same bytes with that one count octet set to 0. Nothing else changes: the TBSCertificate bytes,
    /// the algorithm and the signature octets are the original ones, so OpenSSL verifies the real
    /// signature over the original TBS bytes with the issuer's key, and the rest of the chain check
    /// (issuer to root, validity, CA flags, extensions) runs as for any certificate. A wrong signature, a
    /// changed TBS or another issuer is still refused. `derRepresentation` is `der` as given.
    ///
    /// Use it only where the quirk is known to occur (fido-u2f attestation leaves); everywhere else use
    /// `init(derRepresentation:)`, under which such a certificate's signature never verifies.
    public convenience init(derRepresentationToleratingUnusedSignatureBits der: Data) throws(CryptoError) {
        guard let offset = Self.unusedSignatureBitsOffset(in: der) else {
            try self.init(derRepresentation: der)
            return
        }
        var repaired = der
        repaired[repaired.startIndex + offset] = 0
        self.init(handle: try Self.parse(repaired), derRepresentation: der)
    }

    /// Whether the certificate's DER has the early-U2F quirk: its signature BIT STRING declares 1…7
    /// (zero) unused bits.
    public var declaresUnusedSignatureBits: Bool { Self.unusedSignatureBitsOffset(in: derRepresentation) != nil }

    /// The offset in `der` of the signature BIT STRING's unused-bits octet when it holds the quirk
    /// (1…7, and the declared bits of the last octet are zero); nil for any other encoding.
    static func unusedSignatureBitsOffset(in der: Data) -> Int? {
        let bytes = [UInt8](der)
        guard let outer = element(in: bytes, at: 0), outer.tag == 0x30, outer.end == bytes.count,
              let tbs = element(in: bytes, at: outer.contentStart), tbs.tag == 0x30,
              let algorithm = element(in: bytes, at: tbs.end), algorithm.tag == 0x30,
              let signature = element(in: bytes, at: algorithm.end), signature.tag == 0x03,
              signature.end == outer.end, signature.end - signature.contentStart >= 2 else { return nil }
        let unused = bytes[signature.contentStart]
        guard (1...7).contains(unused), bytes[signature.end - 1] & ((1 << unused) - 1) == 0 else { return nil }
        return signature.contentStart
    }

    /// One DER element's tag and extent (definite lengths up to four octets); nil when it overruns `bytes`.
    private static func element(in bytes: [UInt8], at start: Int) -> (tag: UInt8, contentStart: Int, end: Int)? {
        guard start >= 0, start + 2 <= bytes.count else { return nil }
        let tag = bytes[start]
        let first = Int(bytes[start + 1])
        var length = first
        var contentStart = start + 2
        if first >= 0x80 {
            let count = first & 0x7f
            guard (1...4).contains(count), contentStart + count <= bytes.count else { return nil }
            length = bytes[contentStart..<(contentStart + count)].reduce(0) { $0 << 8 | Int($1) }
            contentStart += count
        }
        guard length <= bytes.count - contentStart else { return nil }
        return (tag, contentStart, contentStart + length)
    }
}
