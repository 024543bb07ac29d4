import Foundation

extension Certificate {
    /// One attribute of an X.509 name: its dotted OID and its value as UTF-8.
    public struct NameAttribute: Sendable, Hashable {
        public var oid: String
        public var value: String
        public init(oid: String, value: String) {
            self.oid = oid
            self.value = value
        }
    }
}

/// An X.509 `Name` (RFC 5280 §4.1.2.4): its RDNs' attributes in order, each with its value decoded to UTF-8
/// when it is one of the directory string types.
struct DistinguishedName: Sendable, Hashable {
    struct Attribute: Sendable, Hashable {
        /// Which RDN (from 0) the attribute belongs to: attributes of a multi-valued RDN share it.
        let rdn: Int
        let oid: String
        /// The value as text for UTF8String, PrintableString, IA5String, TeletexString, BMPString,
        /// UniversalString and NumericString values; nil for the other types a name may hold (kept as `rawValue`).
        let value: String?
        /// The value's own DER (tag, length, contents).
        let rawValue: Data
    }

    let attributes: [Attribute]
    /// The Name's DER.
    let der: Data

    /// Parses `Name ::= SEQUENCE OF SET SIZE (1..MAX) OF SEQUENCE { type OID, value ANY }`. A string value that
    /// is malformed for its type refuses the whole name.
    init(_ element: DERElement) throws(CryptoError) {
        guard let rdns = element.sequenceItems else { throw .malformedInput("X.509 name: not a SEQUENCE") }
        var attributes: [Attribute] = []
        for (index, rdn) in rdns.enumerated() {
            guard rdn.isConstructed, rdn.isUniversal(DERElement.set), !rdn.children.isEmpty else {
                throw .malformedInput("X.509 name: RDN is not a non-empty SET")
            }
            for pair in rdn.children {
                guard let items = pair.sequenceItems, items.count == 2, let oid = items[0].objectIdentifierValue else {
                    throw .malformedInput("X.509 name: attribute is not SEQUENCE { OID, value }")
                }
                let value = try DirectoryString.decode(items[1])
                attributes.append(Attribute(rdn: index, oid: oid, value: value, rawValue: items[1].derEncoding))
            }
        }
        self.attributes = attributes
        der = element.derEncoding
    }

    /// The attributes whose value is text, as the public `NameAttribute`.
    var textAttributes: [Certificate.NameAttribute] {
        attributes.compactMap { a in a.value.map { Certificate.NameAttribute(oid: a.oid, value: $0) } }
    }

    /// The text values of the attributes with this OID, in order.
    func values(oid: String) -> [String] { attributes.compactMap { $0.oid == oid ? $0.value : nil } }

    /// Whether two names are the same name as OpenSSL's `X509_NAME_cmp` decides it: the same RDN structure and
    /// OIDs, text values equal after folding ASCII case and white space (leading and trailing removed, inner runs
    /// made one space), other values equal as DER.
    func isEquivalent(to other: DistinguishedName) -> Bool {
        guard der != other.der else { return true }
        guard attributes.count == other.attributes.count else { return false }
        for (a, b) in zip(attributes, other.attributes) {
            guard a.rdn == b.rdn, a.oid == b.oid else { return false }
            switch (a.value, b.value) {
            case let (x?, y?): guard Self.folded(x) == Self.folded(y) else { return false }
            case (nil, nil): guard a.rawValue == b.rawValue else { return false }
            default: return false
            }
        }
        return true
    }

    private static func folded(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || (0x09...0x0d).contains(byte) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(0x20); pendingSpace = false }
            out.append((0x41...0x5a).contains(byte) ? byte | 0x20 : byte)
        }
        return out
    }

    /// Short and long attribute names (OpenSSL's `OBJ_txt2nid` names) to dotted OIDs.
    static let attributeOIDs: [String: String] = {
        let table: [(short: String, long: String, oid: String)] = [
            ("CN", "commonName", "2.5.4.3"), ("SN", "surname", "2.5.4.4"), ("serialNumber", "serialNumber", "2.5.4.5"),
            ("C", "countryName", "2.5.4.6"), ("L", "localityName", "2.5.4.7"), ("ST", "stateOrProvinceName", "2.5.4.8"),
            ("street", "streetAddress", "2.5.4.9"), ("O", "organizationName", "2.5.4.10"),
            ("OU", "organizationalUnitName", "2.5.4.11"), ("title", "title", "2.5.4.12"),
            ("description", "description", "2.5.4.13"), ("businessCategory", "businessCategory", "2.5.4.15"),
            ("postalCode", "postalCode", "2.5.4.17"), ("name", "name", "2.5.4.41"), ("GN", "givenName", "2.5.4.42"),
            ("initials", "initials", "2.5.4.43"), ("generationQualifier", "generationQualifier", "2.5.4.44"),
            ("x500UniqueIdentifier", "x500UniqueIdentifier", "2.5.4.45"), ("dnQualifier", "dnQualifier", "2.5.4.46"),
            ("pseudonym", "pseudonym", "2.5.4.65"), ("role", "role", "2.5.4.72"),
            ("organizationIdentifier", "organizationIdentifier", "2.5.4.97"),
            ("emailAddress", "emailAddress", "1.2.840.113549.1.9.1"),
            ("DC", "domainComponent", "0.9.2342.19200300.100.1.25"), ("UID", "userId", "0.9.2342.19200300.100.1.1"),
            ("jurisdictionL", "jurisdictionLocalityName", "1.3.6.1.4.1.311.60.2.1.1"),
            ("jurisdictionST", "jurisdictionStateOrProvinceName", "1.3.6.1.4.1.311.60.2.1.2"),
            ("jurisdictionC", "jurisdictionCountryName", "1.3.6.1.4.1.311.60.2.1.3"),
        ]
        var map: [String: String] = [:]
        for entry in table {
            map[entry.short] = entry.oid
            map[entry.long] = entry.oid
        }
        return map
    }()

    /// The OID an attribute name stands for: a short or long name of `attributeOIDs`, or a dotted OID as given.
    static func attributeOID(_ name: String) -> String? {
        if let oid = attributeOIDs[name] { return oid }
        let arcs = name.split(separator: ".", omittingEmptySubsequences: false)
        guard arcs.count >= 2, arcs.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else {
            return nil
        }
        return name
    }
}

/// The string types of X.509 names, decoded to Swift strings. A value of one of these types whose octets are not
/// valid for the type is an error, and so is a value of a type OpenSSL refuses in a name.
enum DirectoryString {
    static let utf8String: UInt32 = 12, numericString: UInt32 = 18, printableString: UInt32 = 19
    static let teletexString: UInt32 = 20, ia5String: UInt32 = 22
    static let universalString: UInt32 = 28, bmpString: UInt32 = 30

    static let text: Set<UInt32> = [utf8String, numericString, printableString, teletexString, ia5String, universalString,
                                    bmpString]
    /// The other universal types OpenSSL reads as an attribute value (its `B_ASN1_PRINTABLE` mask: BIT STRING,
    /// SEQUENCE and the tags it calls unknown); any other type, or another class, it refuses, and so do we.
    static let otherValues: Set<UInt32> = [3, 7, 8, 9, 11, 13, 14, 15, 16, 29]

    /// An attribute value's text; nil for an accepted value that is not text. Throws for a value of another type,
    /// or one that is malformed for its type.
    static func decode(_ element: DERElement) throws(CryptoError) -> String? {
        guard element.tagClass == .universal else { throw .malformedInput("X.509 attribute value: not a universal type") }
        guard text.contains(element.tagNumber) else {
            guard otherValues.contains(element.tagNumber),
                  element.isConstructed == (element.tagNumber == DERElement.sequence),
                  element.tagNumber != DERElement.bitString || element.bitStringValue != nil else {
                throw .malformedInput("X.509 attribute value: type \(element.tagNumber) is not a string")
            }
            return nil
        }
        guard !element.isConstructed else { throw .malformedInput("X.509 string: constructed encoding") }
        guard let text = decode(element.contents, tag: element.tagNumber) else {
            throw .malformedInput("X.509 string: octets not valid for its type")
        }
        return text
    }

    /// The text of a primitive string of type `tag`; nil when the octets are not valid for it.
    static func decode(_ bytes: Data, tag: UInt32) -> String? {
        switch tag {
        case utf8String:
            // Unicode.UTF8's decoder refuses overlong forms, surrogates and values above U+10FFFF.
            var scalars = String.UnicodeScalarView()
            var iterator = bytes.makeIterator()
            var decoder = Unicode.UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return String(scalars)
                case .error: return nil
                }
            }
        case printableString:
            return bytes.allSatisfy(isPrintable) ? String(decoding: bytes, as: UTF8.self) : nil
        case ia5String:
            return bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : nil
        case numericString:
            return bytes.allSatisfy { $0 == 0x20 || (0x30...0x39).contains($0) } ? String(decoding: bytes, as: UTF8.self) : nil
        case teletexString:
            // Read as ISO 8859-1, as OpenSSL and most verifiers do (T.61's own repertoire is not used in practice).
            var scalars = String.UnicodeScalarView()
            for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
            return String(scalars)
        case bmpString:
            // UCS-2 big-endian: UTF-16BE without surrogates (X.680 §41; OpenSSL refuses them too).
            return fixedWidth(bytes, octets: 2)
        case universalString:
            // UCS-4 big-endian: Unicode scalar values only.
            return fixedWidth(bytes, octets: 4)
        default:
            return nil
        }
    }

    /// Big-endian code points of `octets` octets each; nil when one is not a Unicode scalar value.
    private static func fixedWidth(_ bytes: Data, octets: Int) -> String? {
        guard bytes.count % octets == 0 else { return nil }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let value = bytes[index..<(index + octets)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            scalars.append(scalar)
            index += octets
        }
        return String(scalars)
    }

    /// PrintableString's repertoire (X.680 §41.4), plus '*' and '&', which certificates in use carry (as Go's
    /// crypto/x509 accepts them).
    static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5a, 0x61...0x7a, 0x30...0x39, 0x27...0x29, 0x2b...0x2f: true
        case 0x20, 0x3a, 0x3d, 0x3f, 0x2a, 0x26: true
        default: false
        }
    }
}
