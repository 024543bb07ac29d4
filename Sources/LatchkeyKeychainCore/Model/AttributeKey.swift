import LatchkeySupport
import Foundation

/// An item attribute, named by Apple's raw key string (the value of `kSecAttr…`).
///
/// `class` ("class"), `pdmn`, `accc`, `sync`, `cdat` and `mdat` are not here: `ItemAttributes` has
/// typed properties for them.
public enum AttributeKey: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case accessGroup = "agrp"
    case label = "labl"
    case itemDescription = "desc"
    case comment = "icmt"
    case creator = "crtr"
    /// `kSecAttrType` for passwords (a FourCC number) and `kSecAttrKeyType` for keys (a string such as "73").
    case type = "type"
    case isInvisible = "invi"
    case isNegative = "nega"
    case account = "acct"
    case service = "svce"
    case generic = "gena"
    case securityDomain = "sdmn"
    case server = "srvr"
    case internetProtocol = "ptcl"
    case authenticationType = "atyp"
    case port = "port"
    case path = "path"
    case keyClass = "kcls"
    case applicationLabel = "klbl"
    case applicationTag = "atag"
    case keySizeInBits = "bsiz"
    case effectiveKeySize = "esiz"
    case isPermanent = "perm"
    case isExtractable = "extr"
    case canEncrypt = "encr"
    case canDecrypt = "decr"
    case canDerive = "drve"
    case canSign = "sign"
    case canVerify = "vrfy"
    case canWrap = "wrap"
    case canUnwrap = "unwp"
    case certificateType = "ctyp"
    case certificateEncoding = "cenc"
    case subject = "subj"
    case issuer = "issr"
    case serialNumber = "slnr"
    case subjectKeyID = "skid"
    case publicKeyHash = "pkhh"
    /// `kSecAttrIsSensitive` (keys).
    case isSensitive = "sens"
    /// `kSecAttrTokenID`: the token holding the item's secret (on Linux only `kSecAttrTokenIDSecureEnclave`, whose keys
    /// the `Security` module makes in a TPM; its `SecItemAdd` refuses it in a dictionary). Last, so the other cases keep
    /// their bits.
    case tokenID = "tkid"

    public static func < (a: AttributeKey, b: AttributeKey) -> Bool { a.rawValue < b.rawValue }

    /// Hashes the case itself rather than its raw string (equal cases are equal raw values and vice versa),
    /// as one integer (the case's tag byte: cheaper for `Hasher` than a byte buffer).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(withUnsafeBytes(of: self) { $0[0] })
    }

    /// The kind of value this attribute is kept as for items of `itemClass` (its canonical form: primary keys,
    /// lookup MACs and matching compare values in this kind, see `comparable`).
    public func kind(for itemClass: ItemClass) -> AttributeValue.Kind {
        switch self {
        case .accessGroup, .label, .itemDescription, .comment, .account, .service, .securityDomain, .server,
             .internetProtocol, .authenticationType, .path, .keyClass, .tokenID:
            return .string
        case .generic, .applicationLabel, .applicationTag, .subject, .issuer, .serialNumber, .subjectKeyID, .publicKeyHash:
            return .data
        case .type:
            return itemClass == .key || itemClass == .identity ? .string : .int
        case .creator, .port, .keySizeInBits, .effectiveKeySize, .certificateType, .certificateEncoding:
            return .int
        case .isInvisible, .isNegative, .isPermanent, .isExtractable, .canEncrypt, .canDecrypt, .canDerive, .canSign,
             .canVerify, .canWrap, .canUnwrap, .isSensitive:
            return .bool
        }
    }

    /// How Apple's keychain stores this attribute (the column kinds of `SecItemSchema.c`), which decides the values
    /// it takes and how it returns them (`SecDbItem.c`: `copyBlob`, `copyNumber`, `copyString`, `copyData`).
    public enum SchemaKind: String, Sendable, Hashable, CaseIterable {
        /// Kept as given — a string, bytes or a number — and returned so; matched by its bytes (a string by its
        /// UTF-8, a number as a 32-bit integer).
        case blob = "Blob"
        /// A number; a boolean becomes 0 or 1, a string that reads back as the same 32-bit integer becomes that
        /// number, any other string is kept as a string.
        case number = "Number"
        /// A string; UTF-8 bytes become the string.
        case string = "String"
        /// Bytes; a string becomes its UTF-8, a number its 32-bit integer (little-endian).
        case data = "Data"
    }

    /// Apple's kind for this attribute.
    public var schemaKind: SchemaKind {
        switch self {
        case .label, .itemDescription, .comment, .account, .service, .generic, .securityDomain, .server,
             .authenticationType, .path, .applicationTag:
            .blob
        case .accessGroup, .tokenID:
            .string
        case .applicationLabel, .subject, .issuer, .serialNumber, .subjectKeyID, .publicKeyHash:
            .data
        case .creator, .type, .isInvisible, .isNegative, .internetProtocol, .port, .certificateType, .certificateEncoding,
             .keyClass, .isPermanent, .keySizeInBits, .effectiveKeySize, .isExtractable, .canEncrypt, .canDecrypt,
             .canDerive, .canSign, .canVerify, .canWrap, .canUnwrap, .isSensitive:
            .number
        }
    }

    /// True for the attributes Apple stores as blobs: a `String`, `Data` or number value is kept as given and read
    /// back with the type it was added with (`kSecAttrAccount` added as `Data` is returned as `Data`), and values
    /// are compared by their bytes (a `Data` account matches the `String` account of the same UTF-8 bytes).
    public var isBlob: Bool { schemaKind == .blob }

    /// True when a value of `valueKind` fits this attribute for items of `itemClass` (Apple's kind decides:
    /// a blob takes strings, bytes and numbers; a number takes numbers, flags and strings; a string attribute
    /// strings; a data attribute bytes).
    public func accepts(_ valueKind: AttributeValue.Kind, for itemClass: ItemClass) -> Bool {
        switch schemaKind {
        case .blob: valueKind != .bool
        case .number: valueKind != .data
        case .string: valueKind == .string
        case .data: valueKind == .data
        }
    }

    /// The form in which a value is matched, keyed and indexed (Apple compares blobs by their bytes and numbers as
    /// numbers), in this attribute's canonical kind (`kind(for:)`), so existing keys keep their encoding:
    /// - blob: the bytes (a string's UTF-8, a number's 32-bit little-endian integer), as a string when they are UTF-8;
    /// - number: an integer (a flag as 0 or 1, a decimal string as its number), or the decimal string for the
    ///   string-kept numbers (key type, key class, protocol); another string stays a string;
    /// - string (access group): UTF-8 bytes as the string; data: a string as its UTF-8.
    public func comparable(_ value: AttributeValue, for itemClass: ItemClass) -> AttributeValue {
        switch schemaKind {
        case .blob:
            let bytes: Data
            switch value {
            case .bool: return value
            case let .string(s):
                guard kind(for: itemClass) == .data else { return value }
                bytes = Data(s.utf8)
            case let .data(d): bytes = d
            case let .int(i): bytes = Self.int32Bytes(i)
            }
            // Bytes-kept blobs (generic, application tag) as bytes; the others as text when the bytes are UTF-8.
            if kind(for: itemClass) == .data { return .data(bytes) }
            return String(validatingUTF8Bytes: bytes).map(AttributeValue.string) ?? .data(bytes)
        case .number:
            let number: Int64?
            switch value {
            case let .int(i): number = i
            case let .bool(b): number = b ? 1 : 0
            case let .string(s): number = Self.canonicalInteger(s)
            case .data: number = nil
            }
            guard let number else { return value }
            return kind(for: itemClass) == .string ? .string(String(number)) : .int(number)
        case .string:
            if case let .data(d) = value, let text = String(validatingUTF8Bytes: d) { return .string(text) }
            return value
        case .data:
            if case let .string(s) = value { return .data(Data(s.utf8)) }
            return value
        }
    }

    /// `s` as Apple's `copyNumber` reads a string: the 32-bit integer whose decimal form is exactly `s`, else nil.
    public static func canonicalInteger(_ s: String) -> Int64? {
        guard let n = Int32(s), String(n) == s else { return nil }
        return Int64(n)
    }

    /// A number as Apple turns it into bytes (`copyData`: a 32-bit integer, little-endian as on every Apple CPU).
    public static func int32Bytes(_ i: Int64) -> Data {
        withUnsafeBytes(of: Int32(truncatingIfNeeded: i).littleEndian) { Data($0) }
    }

    private static let common: Set<AttributeKey> = [.accessGroup, .label, .tokenID]
    private static let password: Set<AttributeKey> = [.account, .itemDescription, .comment, .creator, .type, .isInvisible, .isNegative]
    private static let keyAttributes: Set<AttributeKey> = [.keyClass, .applicationLabel, .applicationTag, .type, .creator,
        .keySizeInBits, .effectiveKeySize, .isPermanent, .isExtractable, .canEncrypt, .canDecrypt, .canDerive, .canSign,
        .canVerify, .canWrap, .canUnwrap, .isSensitive]
    private static let certificateAttributes: Set<AttributeKey> = [.certificateType, .certificateEncoding, .subject,
        .issuer, .serialNumber, .subjectKeyID, .publicKeyHash]

    /// The attributes an item of this class can have (others in a query are `errSecParam`).
    public static func applicable(to itemClass: ItemClass) -> Set<AttributeKey> {
        switch itemClass {
        case .genericPassword: applicableGenericPassword
        case .internetPassword: applicableInternetPassword
        case .key: applicableKey
        case .certificate: applicableCertificate
        case .identity: applicableIdentity
        }
    }

    /// True when an item of `itemClass` can have `key` (the same answer as `applicable(to:)`, from a bit set:
    /// no hashing on the hot paths that check every attribute of a query or an item).
    package static func isApplicable(_ key: AttributeKey, to itemClass: ItemClass) -> Bool {
        let mask: UInt64 = switch itemClass {
        case .genericPassword: applicableMaskGenericPassword
        case .internetPassword: applicableMaskInternetPassword
        case .key: applicableMaskKey
        case .certificate: applicableMaskCertificate
        case .identity: applicableMaskIdentity
        }
        return mask & key.bit != 0
    }

    /// The case's position in declaration order (the tag of a no-payload enum; a test checks it matches
    /// `allCases`), as one bit of a `UInt64`.
    package var bit: UInt64 { withUnsafeBytes(of: self) { 1 << UInt64($0[0]) } }

    private static func mask(_ keys: Set<AttributeKey>) -> UInt64 { keys.reduce(0) { $0 | $1.bit } }
    private static let applicableMaskGenericPassword = mask(applicableGenericPassword)
    private static let applicableMaskInternetPassword = mask(applicableInternetPassword)
    private static let applicableMaskKey = mask(applicableKey)
    private static let applicableMaskCertificate = mask(applicableCertificate)
    private static let applicableMaskIdentity = mask(applicableIdentity)

    private static let applicableGenericPassword = makeApplicable(.genericPassword)
    private static let applicableInternetPassword = makeApplicable(.internetPassword)
    private static let applicableKey = makeApplicable(.key)
    private static let applicableCertificate = makeApplicable(.certificate)
    private static let applicableIdentity = makeApplicable(.identity)

    private static func makeApplicable(_ itemClass: ItemClass) -> Set<AttributeKey> {
        switch itemClass {
        case .genericPassword: common.union(password).union([.service, .generic])
        case .internetPassword: common.union(password).union([.securityDomain, .server, .internetProtocol,
                                                              .authenticationType, .port, .path])
        case .key: common.union(keyAttributes)
        case .certificate: common.union(certificateAttributes)
        case .identity: common.union(certificateAttributes).union(keyAttributes)
        }
    }

    /// The attributes that, with the class and `synchronizable`, identify an item (Apple's primary keys):
    /// - genp: agrp, acct, svce
    /// - inet: agrp, acct, sdmn, srvr, ptcl, atyp, port, path
    /// - keys: agrp, kcls, klbl, atag, type, crtr, bsiz, esiz (Apple also has sdat/edat, not modelled)
    /// - cert, idnt: agrp, ctyp, issr, slnr — when issr and slnr are both absent the certificate's DER
    ///   (the item value) stands in for them, since certificates are opaque for now.
    public static func primaryKey(of itemClass: ItemClass) -> [AttributeKey] {
        switch itemClass {
        case .genericPassword: primaryGenericPassword
        case .internetPassword: primaryInternetPassword
        case .key: primaryKey
        case .certificate, .identity: primaryCertificate
        }
    }

    /// True when `key` is in `primaryKey(of: itemClass)` (from a bit set: no array to search).
    package static func isPrimaryKey(_ key: AttributeKey, of itemClass: ItemClass) -> Bool {
        let mask: UInt64 = switch itemClass {
        case .genericPassword: primaryMaskGenericPassword
        case .internetPassword: primaryMaskInternetPassword
        case .key: primaryMaskKey
        case .certificate, .identity: primaryMaskCertificate
        }
        return mask & key.bit != 0
    }

    private static let primaryMaskGenericPassword = primaryGenericPassword.reduce(0) { $0 | $1.bit }
    private static let primaryMaskInternetPassword = primaryInternetPassword.reduce(0) { $0 | $1.bit }
    private static let primaryMaskKey = primaryKey.reduce(0) { $0 | $1.bit }
    private static let primaryMaskCertificate = primaryCertificate.reduce(0) { $0 | $1.bit }

    private static let primaryGenericPassword: [AttributeKey] = [.accessGroup, .account, .service]
    private static let primaryInternetPassword: [AttributeKey] = [.accessGroup, .account, .securityDomain, .server,
                                                                  .internetProtocol, .authenticationType, .port, .path]
    private static let primaryKey: [AttributeKey] = [.accessGroup, .keyClass, .applicationLabel, .applicationTag, .type,
                                                     .creator, .keySizeInBits, .effectiveKeySize]
    private static let primaryCertificate: [AttributeKey] = [.accessGroup, .certificateType, .issuer, .serialNumber]
}
