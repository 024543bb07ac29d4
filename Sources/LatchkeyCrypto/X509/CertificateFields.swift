import Foundation

/// The portable parse of one X.509 v1–v3 certificate (RFC 5280 §4.1), read with the bounded `DERReader`.
///
/// Accepted: DER only — definite shortest lengths, primitive strings, shortest INTEGERs, BOOLEAN 0x00/0xFF,
/// BIT STRINGs with zero padding bits, the DER time forms (`X509Time`), nothing after the certificate; the
/// signature algorithm inside TBSCertificate equal to the outer one; unique identifiers only in v2/v3,
/// extensions only in v3; each extension OID once; name strings valid for their type, and name values and algorithm
/// parameters of the types OpenSSL reads there (`DirectoryString`, `DERElement.isWellFormedAnyValue`), so that a
/// certificate parsed here is one the platform's verifier reads too.
/// Two explicitly written DEFAULT values that certificates in use carry and OpenSSL and Go's crypto/x509 read
/// are accepted too: `version` v1 and an extension's `critical` FALSE. The signature BIT STRING may declare
/// 1–7 (zero) unused bits: the early-U2F quirk, see `Certificate+SignatureQuirk.swift`.
struct CertificateFields: Sendable {
    struct AlgorithmIdentifier: Sendable, Hashable {
        let oid: String
        /// The parameters' DER (tag, length, contents), when present.
        let parameters: Data?

        init(_ element: DERElement) throws(CryptoError) {
            guard let items = element.sequenceItems, (1...2).contains(items.count),
                  let oid = items[0].objectIdentifierValue, items.count == 1 || items[1].isWellFormedAnyValue else {
                throw .malformedInput("X.509 algorithm identifier")
            }
            self.oid = oid
            parameters = items.count == 2 ? items[1].derEncoding : nil
        }
    }

    struct Extension: Sendable, Hashable {
        let oid: String
        let isCritical: Bool
        /// The OCTET STRING's contents: the extension's own DER.
        let value: Data
    }

    /// 1, 2 or 3.
    let version: Int
    /// The INTEGER's two's-complement octets.
    let serialNumber: Data
    let signatureAlgorithm: AlgorithmIdentifier
    let issuer: DistinguishedName
    let notBefore: Date
    let notAfter: Date
    let subject: DistinguishedName
    /// The SubjectPublicKeyInfo's DER, as written in the certificate.
    let subjectPublicKeyInfo: Data
    let publicKeyAlgorithm: AlgorithmIdentifier
    let extensions: [Extension]
    /// The signature BIT STRING's declared unused bits (0 except for the early-U2F quirk) and its octets.
    let signatureUnusedBits: Int
    let signature: Data

    /// Deepest nesting a certificate needs (algorithm parameters such as RSASSA-PSS's are the deepest part).
    static let maxDepth = 12

    init(der: Data) throws(CryptoError) {
        let root = try DERReader.parse(der, maxDepth: Self.maxDepth)
        guard let outer = root.sequenceItems, outer.count == 3, let tbs = outer[0].sequenceItems else {
            throw .malformedInput("X.509: not SEQUENCE { TBSCertificate, signatureAlgorithm, signature }")
        }
        let algorithm = try AlgorithmIdentifier(outer[1])
        guard let bits = outer[2].bitStringValue else { throw .malformedInput("X.509 signature BIT STRING") }
        signatureUnusedBits = bits.unusedBits
        signature = bits.bytes

        var index = 0
        func next() -> DERElement? { index < tbs.count ? tbs[index] : nil }

        // version [0] EXPLICIT INTEGER DEFAULT v1
        var version = 1
        if let explicit = next(), explicit.isContext(0) {
            guard explicit.isConstructed, explicit.children.count == 1,
                  let value = explicit.children[0].smallIntegerValue, explicit.children[0].integerBytes != nil,
                  (0...2).contains(value) else {
                throw .malformedInput("X.509 version")
            }
            version = Int(value) + 1
            index += 1
        }
        self.version = version

        guard let serial = next()?.integerBytes else { throw .malformedInput("X.509 serial number") }
        serialNumber = serial
        index += 1

        guard let inner = next() else { throw .malformedInput("X.509 TBSCertificate truncated") }
        signatureAlgorithm = try AlgorithmIdentifier(inner)
        guard signatureAlgorithm == algorithm else {
            throw .malformedInput("X.509 signature algorithm differs inside and outside TBSCertificate")
        }
        index += 1

        guard let issuerElement = next() else { throw .malformedInput("X.509 TBSCertificate truncated") }
        issuer = try DistinguishedName(issuerElement)
        index += 1

        guard let validity = next()?.sequenceItems, validity.count == 2 else { throw .malformedInput("X.509 validity") }
        notBefore = try X509Time.date(validity[0])
        notAfter = try X509Time.date(validity[1])
        index += 1

        guard let subjectElement = next() else { throw .malformedInput("X.509 TBSCertificate truncated") }
        subject = try DistinguishedName(subjectElement)
        index += 1

        guard let spki = next(), let keyItems = spki.sequenceItems, keyItems.count == 2,
              keyItems[1].bitStringValue != nil else {
            throw .malformedInput("X.509 SubjectPublicKeyInfo")
        }
        publicKeyAlgorithm = try AlgorithmIdentifier(keyItems[0])
        subjectPublicKeyInfo = spki.derEncoding
        index += 1

        // issuerUniqueID [1] IMPLICIT BIT STRING, subjectUniqueID [2] IMPLICIT BIT STRING (v2, v3).
        for number: UInt32 in [1, 2] {
            guard let unique = next(), unique.isContext(number) else { continue }
            guard version >= 2, !unique.isConstructed, DERElement.bitString(unique.contents) != nil else {
                throw .malformedInput("X.509 unique identifier")
            }
            index += 1
        }

        // extensions [3] EXPLICIT SEQUENCE OF Extension (v3).
        var extensions: [Extension] = []
        if let explicit = next(), explicit.isContext(3) {
            guard version == 3, explicit.isConstructed, explicit.children.count == 1,
                  let list = explicit.children[0].sequenceItems else {
                throw .malformedInput("X.509 extensions")
            }
            var seen = Set<String>()
            for item in list {
                let parsed = try Self.parseExtension(item)
                guard seen.insert(parsed.oid).inserted else {
                    throw .malformedInput("X.509 extension \(parsed.oid) appears twice")
                }
                extensions.append(parsed)
            }
            index += 1
        }
        self.extensions = extensions
        guard index == tbs.count else { throw .malformedInput("X.509 TBSCertificate has unexpected fields") }
    }

    /// `Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`.
    private static func parseExtension(_ element: DERElement) throws(CryptoError) -> Extension {
        guard let items = element.sequenceItems, (2...3).contains(items.count),
              let oid = items[0].objectIdentifierValue, let value = items[items.count - 1].octetStringValue else {
            throw .malformedInput("X.509 extension")
        }
        var critical = false
        if items.count == 3 {
            guard let flag = items[1].booleanValue else { throw .malformedInput("X.509 extension critical flag") }
            critical = flag
        }
        return Extension(oid: oid, isCritical: critical, value: value)
    }

    func extensionNamed(_ oid: String) -> Extension? { extensions.first { $0.oid == oid } }
}
