import Foundation

/// Extension accessors decoded from the portable parse, for attestation certificate requirements
/// (WebAuthn §8.3.1 TPM AIK certificates, §8.5 SafetyNet). An extension whose value does not decode (as DER)
/// reads as absent, as OpenSSL's `X509_get_ext_d2i` answers for one it cannot decode.
extension Certificate {
    static let subjectAlternativeNameOID = "2.5.29.17"
    static let basicConstraintsOID = "2.5.29.19"
    static let keyUsageOID = "2.5.29.15"
    static let extendedKeyUsageOID = "2.5.29.37"

    /// True when the subject name has no attributes.
    public var hasEmptySubject: Bool { fields.subject.attributes.isEmpty }

    /// Whether the subject alternative name extension is present and marked critical.
    public var isSubjectAlternativeNameCritical: Bool { isExtensionCritical(oid: Self.subjectAlternativeNameOID) }

    /// The attributes of every `directoryName` in the subject alternative name extension, in order;
    /// nil when the extension is absent or does not decode.
    public var subjectAlternativeNameDirectoryAttributes: [NameAttribute]? {
        guard let names = subjectAlternativeNames else { return nil }
        return names.flatMap { name -> [NameAttribute] in
            if case .directoryName(let directory) = name { return directory.textAttributes }
            return []
        }
    }

    /// The DNS names in the subject alternative name extension (empty when there are none).
    public var subjectAlternativeNameDNSNames: [String] {
        (subjectAlternativeNames ?? []).compactMap { name in
            // IA5String octets read one character each, as OpenSSL's ASN1_STRING_to_UTF8 reads them.
            if case .dnsName(let bytes) = name { return DirectoryString.decode(bytes, tag: DirectoryString.teletexString) }
            return nil
        }
    }

    /// The dotted OIDs of the extended key usage extension; nil when it is absent or does not decode.
    public var extendedKeyUsageOIDs: [String]? {
        guard let value = extensionValue(oid: Self.extendedKeyUsageOID),
              let list = (try? DERReader.parse(value))?.sequenceItems else { return nil }
        var oids: [String] = []
        for item in list {
            guard let oid = item.objectIdentifierValue else { return nil }
            oids.append(oid)
        }
        return oids
    }

    /// The `cA` flag of the basic constraints extension; nil when the extension is absent or does not decode.
    public var basicConstraintsCA: Bool? { basicConstraints?.isCA }

    /// Whether the certificate can issue certificates, by the rule of OpenSSL 3's `X509_check_ca`:
    ///
    /// 1. Not when an extension OpenSSL caches does not decode — basic constraints, key usage, extended key
    ///    usage, Netscape cert type, subject and authority key identifiers, subject alternative name (fully);
    ///    name constraints, CRL distribution points, RFC 3779 address and AS blocks, proxy certificate info (as
    ///    SEQUENCEs) — nor when the path length is negative, the key usage names no usage, or a proxy
    ///    certificate also says CA or has alternative names.
    /// 2. Not when a key usage extension lacks keyCertSign.
    /// 3. With basic constraints: their `cA` flag.
    /// 4. Without: yes for a self-signed v1 certificate (subject and issuer the same name as `X509_NAME_cmp`
    ///    compares them, signature algorithm of the subject key's type), yes with a key usage (it has
    ///    keyCertSign, by 2), yes with a Netscape cert type naming a CA use (sslCA, emailCA, objCA); otherwise no.
    ///
    /// Where this differs from OpenSSL (only for malformed certificates): extension values are decoded as DER,
    /// where OpenSSL also reads BER forms (constructed strings) and ignores bytes after the value; and a v1
    /// certificate whose key OpenSSL cannot decode is not self-signed for OpenSSL (key decoding is the
    /// verifier's, not the parser's).
    public var isCertificateAuthority: Bool {
        guard extensionsDecodeAsOpenSSLCachesThem else { return false }
        let keyUsage = keyUsageBits
        if let keyUsage, keyUsage & 0x0004 == 0 { return false }
        if let basicConstraints { return basicConstraints.isCA }
        if version == 1, isSelfSigned { return true }
        if keyUsage != nil { return true }
        if let netscape = netscapeCertTypeBits, netscape & 0x07 != 0 { return true }
        return false
    }

    // MARK: Decoding

    /// One `GeneralName` of a subject alternative name (RFC 5280 §4.2.1.6), as far as the accessors need it.
    enum GeneralName {
        case dnsName(Data)
        case directoryName(DistinguishedName)
        case other
    }

    /// The subject alternative names; nil when the extension is absent or does not decode.
    var subjectAlternativeNames: [GeneralName]? {
        guard let value = extensionValue(oid: Self.subjectAlternativeNameOID) else { return nil }
        return try? Self.generalNames(value)
    }

    /// `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName`, each alternative checked for its DER form (its
    /// strings' octets are taken as they are, as OpenSSL takes them).
    static func generalNames(_ value: Data) throws(CryptoError) -> [GeneralName] {
        guard let list = try DERReader.parse(value).sequenceItems else { throw .malformedInput("GeneralNames") }
        return try generalNames(list)
    }

    /// The names of a `GeneralNames` list's elements (an empty list is read, as OpenSSL reads it).
    static func generalNames(_ list: [DERElement]) throws(CryptoError) -> [GeneralName] {
        var names: [GeneralName] = []
        for item in list {
            guard item.tagClass == .contextSpecific else { throw .malformedInput("GeneralName") }
            switch (item.tagNumber, item.isConstructed) {
            case (1, false), (2, false), (6, false): // rfc822Name, dNSName, URI: IA5String (any octets, as OpenSSL)
                names.append(item.tagNumber == 2 ? .dnsName(item.contents) : .other)
            case (4, true): // directoryName: [4] EXPLICIT Name
                guard item.children.count == 1 else { throw .malformedInput("GeneralName directoryName") }
                names.append(.directoryName(try DistinguishedName(item.children[0])))
            case (0, true): // otherName: [0] IMPLICIT SEQUENCE { type-id OID, value [0] EXPLICIT ANY }
                guard item.children.count == 2, item.children[0].objectIdentifierValue != nil,
                      item.children[1].isContext(0), item.children[1].isConstructed else {
                    throw .malformedInput("GeneralName otherName")
                }
                names.append(.other)
            case (3, true), (5, true), (7, false): // x400Address, ediPartyName, iPAddress (an OCTET STRING)
                names.append(.other)
            case (8, false): // registeredID
                guard DERElement.dottedObjectIdentifier(item.contents) != nil else {
                    throw .malformedInput("GeneralName registeredID")
                }
                names.append(.other)
            default:
                throw .malformedInput("GeneralName")
            }
        }
        return names
    }

    struct BasicConstraints {
        let isCA: Bool
        let pathLength: Data?
        var hasNegativePathLength: Bool { (pathLength?.first ?? 0) & 0x80 != 0 }
    }

    /// `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }`
    /// (an explicit FALSE, and any non-zero octet as TRUE, are read as OpenSSL reads them); nil when absent or
    /// not decodable.
    var basicConstraints: BasicConstraints? {
        guard let value = extensionValue(oid: Self.basicConstraintsOID),
              var items = (try? DERReader.parse(value))?.sequenceItems, items.count <= 2 else { return nil }
        var isCA = false
        if let first = items.first, first.isPrimitive(DERElement.boolean) {
            guard first.contents.count == 1 else { return nil }
            isCA = first.contents[first.contents.startIndex] != 0
            items.removeFirst()
        }
        var pathLength: Data?
        if let last = items.first {
            guard items.count == 1, let bytes = last.integerBytes else { return nil }
            pathLength = bytes
        }
        return BasicConstraints(isCA: isCA, pathLength: pathLength)
    }

    /// The key usage bits as OpenSSL keeps them (first octet, then the second octet shifted by 8); nil when
    /// the extension is absent or does not decode.
    var keyUsageBits: Int? { Self.namedBits(extensionValue(oid: Self.keyUsageOID), octets: 2) }

    /// The Netscape cert type bits (first octet); nil when absent or not decodable.
    var netscapeCertTypeBits: Int? { Self.namedBits(extensionValue(oid: "2.16.840.1.113730.1.1"), octets: 1) }

    /// A named-bit BIT STRING's first `octets` octets, least significant first, its padding bits cleared.
    static func namedBits(_ value: Data?, octets: Int) -> Int? {
        guard let value, let element = try? DERReader.parse(value), element.isPrimitive(DERElement.bitString),
              let unused = element.contents.first, unused <= 7, element.contents.count > 1 || unused == 0 else {
            return nil
        }
        var bytes = [UInt8](element.contents.dropFirst())
        if !bytes.isEmpty { bytes[bytes.count - 1] &= 0xff << unused }
        var bits = 0
        for (i, byte) in bytes.prefix(octets).enumerated() { bits |= Int(byte) << (8 * i) }
        return bits
    }

    /// Whether every extension `X509_check_ca` looks at decodes, with OpenSSL's extra validity rules.
    private var extensionsDecodeAsOpenSSLCachesThem: Bool {
        if extensionValue(oid: Self.basicConstraintsOID) != nil {
            guard let basicConstraints, !basicConstraints.hasNegativePathLength else { return false }
        }
        if extensionValue(oid: Self.keyUsageOID) != nil {
            guard let bits = keyUsageBits, bits != 0 else { return false }
        }
        if extensionValue(oid: Self.extendedKeyUsageOID) != nil, extendedKeyUsageOIDs == nil { return false }
        if extensionValue(oid: "2.16.840.1.113730.1.1") != nil, netscapeCertTypeBits == nil { return false }
        if extensionValue(oid: Self.subjectAlternativeNameOID) != nil, subjectAlternativeNames == nil { return false }
        if let skid = extensionValue(oid: "2.5.29.14"), (try? DERReader.parse(skid))?.octetStringValue == nil { return false }
        if let akid = extensionValue(oid: "2.5.29.35"), !Self.isAuthorityKeyIdentifier(akid) { return false }
        // Name constraints, CRL distribution points, RFC 3779 blocks: SEQUENCEs.
        for oid in ["2.5.29.30", "2.5.29.31", "1.3.6.1.5.5.7.1.7", "1.3.6.1.5.5.7.1.8"] {
            if let value = extensionValue(oid: oid), (try? DERReader.parse(value))?.sequenceItems == nil { return false }
        }
        // Proxy certificate info: a proxy certificate may not be a CA nor have alternative names.
        if let proxy = extensionValue(oid: "1.3.6.1.5.5.7.1.14") {
            guard (try? DERReader.parse(proxy))?.sequenceItems != nil, basicConstraints?.isCA != true,
                  extensionValue(oid: Self.subjectAlternativeNameOID) == nil,
                  extensionValue(oid: "2.5.29.18") == nil else { return false }
        }
        return true
    }

    /// `AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET STRING OPTIONAL,
    /// authorityCertIssuer [1] IMPLICIT GeneralNames OPTIONAL, authorityCertSerialNumber [2] IMPLICIT INTEGER OPTIONAL }`.
    static func isAuthorityKeyIdentifier(_ value: Data) -> Bool {
        guard let items = (try? DERReader.parse(value))?.sequenceItems else { return false }
        var previous: UInt32?
        for item in items {
            guard item.tagClass == .contextSpecific, item.tagNumber <= 2, previous.map({ item.tagNumber > $0 }) ?? true else {
                return false
            }
            previous = item.tagNumber
            switch item.tagNumber {
            case 0: guard !item.isConstructed else { return false }
            case 1: guard item.isConstructed, (try? generalNames(item.children)) != nil else { return false }
            default: guard !item.isConstructed, DERElement.isShortestInteger(item.contents) else { return false }
            }
        }
        return true
    }

    /// OpenSSL's self-signed test as far as a v1 certificate (which has no key identifiers) needs it: the
    /// subject and issuer are the same name, and the signature algorithm is one for the subject key's type.
    private var isSelfSigned: Bool {
        fields.subject.isEquivalent(to: fields.issuer)
            && Self.keyType(ofSignatureAlgorithm: fields.signatureAlgorithm.oid).contains(fields.publicKeyAlgorithm.oid)
    }

    /// The SubjectPublicKeyInfo algorithms a signature algorithm is made with (OpenSSL's `check_sig_alg_match`).
    static func keyType(ofSignatureAlgorithm oid: String) -> Set<String> {
        let rsa = "1.2.840.113549.1.1.1", pss = "1.2.840.113549.1.1.10"
        switch oid {
        case "1.2.840.10045.4.1", "1.2.840.10045.4.3.1", "1.2.840.10045.4.3.2", "1.2.840.10045.4.3.3",
             "1.2.840.10045.4.3.4":
            return ["1.2.840.10045.2.1"]
        case "1.2.840.113549.1.1.2", "1.2.840.113549.1.1.3", "1.2.840.113549.1.1.4", "1.2.840.113549.1.1.5",
             "1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12", "1.2.840.113549.1.1.13", "1.2.840.113549.1.1.14",
             "1.2.840.113549.1.1.15", "1.2.840.113549.1.1.16", "1.3.14.3.2.29":
            return [rsa]
        case pss: return [rsa, pss]
        case "1.3.101.112": return ["1.3.101.112"]
        case "1.3.101.113": return ["1.3.101.113"]
        case "1.2.840.10040.4.3", "2.16.840.1.101.3.4.3.1", "2.16.840.1.101.3.4.3.2": return ["1.2.840.10040.4.1"]
        default: return []
        }
    }
}
