import Foundation
import LatchkeySupport

/// An X.509 certificate: its DER and the portable parse of it (`CertificateFields`), with the accessors
/// attestation verification needs. Every accessor is computed from the parse in Swift; only signature and
/// chain verification go to the platform's verifier (`CertificateVerification+Linux.swift`: OpenSSL;
/// `CertificateVerification+Apple.swift`: Security), whose object for the certificate is made on first use and kept. Immutable after parsing.
public final class Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The DER bytes the certificate was parsed from.
    public let derRepresentation: Data
    let fields: CertificateFields
    /// The bytes the platform's verifier parses: `derRepresentation`, except for the early-U2F quirk
    /// (`init(derRepresentationToleratingUnusedSignatureBits:)`).
    let verificationDER: Data
    private let platform = Locked<Result<PlatformCertificate, CryptoError>?>(nil)

    /// Largest certificate accepted.
    public static let maxSize = 16 * 1024

    public convenience init(derRepresentation der: Data) throws(CryptoError) {
        self.init(fields: try Self.parse(der), derRepresentation: der, verificationDER: der)
    }

    /// A certificate parsed from `der`, whose platform object will be made from `verificationDER`.
    init(fields: CertificateFields, derRepresentation der: Data, verificationDER: Data) {
        self.fields = fields
        derRepresentation = der
        self.verificationDER = verificationDER
    }

    /// The portable parse of `der`, within the size limit.
    static func parse(_ der: Data) throws(CryptoError) -> CertificateFields {
        guard der.count <= Self.maxSize else { throw .inputTooLarge(limit: Self.maxSize) }
        guard !der.isEmpty else { throw .malformedInput("empty certificate") }
        return try CertificateFields(der: der)
    }

    /// The platform verifier's object for this certificate, made from `verificationDER` on first use and kept
    /// (a failure too). The seam's entry point.
    func platformCertificate() throws(CryptoError) -> PlatformCertificate {
        let result = platform.withLock { cached in
            if let cached { return cached }
            let made = Result { () throws(CryptoError) in try PlatformCertificate(verificationDER: verificationDER) }
            cached = made
            return made
        }
        return try result.get()
    }

    public static func == (a: Certificate, b: Certificate) -> Bool { a.derRepresentation == b.derRepresentation }
    public func hash(into hasher: inout Hasher) { hasher.combine(derRepresentation) }

    /// X.509 version as written in the certificate (3 for v3).
    public var version: Int { fields.version }

    /// The SubjectPublicKeyInfo DER of the certified key, as the certificate writes it. (The key itself is
    /// decoded by whoever uses it: `P256.Signing.PublicKey(derRepresentation:)` and the like.)
    public var subjectPublicKeyInfo: Data {
        get throws(CryptoError) { fields.subjectPublicKeyInfo }
    }

    /// The key of an elliptic-curve certificate (id-ecPublicKey) as its named curve's OID ("1.2.840.10045.3.1.7" for
    /// P-256) and the point's octets as the certificate writes them (SEC 1: 0x04 ‖ x ‖ y when uncompressed), read from
    /// the SubjectPublicKeyInfo without decoding the key (no curve arithmetic: the point is not checked to be on the
    /// curve); nil for another key type or implicit curve parameters.
    public var ellipticCurvePublicKey: (curve: String, point: Data)? {
        guard fields.publicKeyAlgorithm.oid == "1.2.840.10045.2.1", let parameters = fields.publicKeyAlgorithm.parameters,
              let curve = (try? DERReader.parse(parameters))?.objectIdentifierValue,
              let items = (try? DERReader.parse(fields.subjectPublicKeyInfo))?.sequenceItems, items.count == 2,
              let key = items[1].bitStringValue, key.unusedBits == 0 else { return nil }
        return (curve, key.bytes)
    }

    public var notBefore: Date? { fields.notBefore }
    public var notAfter: Date? { fields.notAfter }

    /// Values of one subject attribute, by OID (e.g. "2.5.4.11" for OU), short name ("OU", "CN", "O", "C", "L",
    /// "ST", "serialNumber"…) or long name ("organizationalUnitName"); unknown names have no values.
    public func subjectAttribute(_ name: String) -> [String] {
        guard let oid = DistinguishedName.attributeOID(name) else { return [] }
        return fields.subject.values(oid: oid)
    }

    /// A short human-readable name: the subject's (last) common name, else its organization, else its
    /// organizational unit (Security's `SecCertificateCopySubjectSummary`).
    public var subjectSummary: String? {
        for attribute in ["CN", "O", "OU"] {
            if let value = subjectAttribute(attribute).last(where: { !$0.isEmpty }) { return value }
        }
        return nil
    }

    /// The DER contents (the OCTET STRING's value) of the extension with this dotted OID, if present.
    public func extensionValue(oid: String) -> Data? { fields.extensionNamed(oid)?.value }

    /// Whether the extension with this OID is marked critical.
    public func isExtensionCritical(oid: String) -> Bool { fields.extensionNamed(oid)?.isCritical ?? false }

    public var description: String {
        "Certificate(subject: \(subjectAttribute("CN").joined(separator: ", ")))"
    }
}
