import Foundation
import COpenSSL

/// Extension accessors decoded by OpenSSL (`X509_get_ext_d2i`), for attestation certificate requirements
/// (WebAuthn §8.3.1 TPM AIK certificates, §8.5 SafetyNet).
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

    static let subjectAlternativeNameOID = "2.5.29.17"

    /// True when the subject name has no attributes.
    public var hasEmptySubject: Bool {
        guard let subject = X509_get_subject_name(handle) else { return true }
        return X509_NAME_entry_count(subject) == 0
    }

    /// Whether the subject alternative name extension is present and marked critical.
    public var isSubjectAlternativeNameCritical: Bool { isExtensionCritical(oid: Self.subjectAlternativeNameOID) }

    /// The attributes of every `directoryName` in the subject alternative name extension, in order;
    /// nil when the extension is absent or does not decode.
    public var subjectAlternativeNameDirectoryAttributes: [NameAttribute]? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_subject_alt_name, &critical, nil) else { return nil }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var attributes: [NameAttribute] = []
        for i in 0..<max(0, OPENSSL_sk_num(names)) {
            guard let item = OPENSSL_sk_value(names, i) else { continue }
            let name = item.assumingMemoryBound(to: GENERAL_NAME.self)
            guard name.pointee.type == GEN_DIRNAME, let directory = name.pointee.d.directoryName else { continue }
            attributes += Self.attributes(of: directory)
        }
        return attributes
    }

    /// The DNS names in the subject alternative name extension (empty when there are none).
    public var subjectAlternativeNameDNSNames: [String] {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_subject_alt_name, &critical, nil) else { return [] }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var out: [String] = []
        for i in 0..<max(0, OPENSSL_sk_num(names)) {
            guard let item = OPENSSL_sk_value(names, i) else { continue }
            let name = item.assumingMemoryBound(to: GENERAL_NAME.self)
            guard name.pointee.type == GEN_DNS, let value = name.pointee.d.dNSName,
                  let text = Self.utf8(value) else { continue }
            out.append(text)
        }
        return out
    }

    /// The dotted OIDs of the extended key usage extension; nil when it is absent or does not decode.
    public var extendedKeyUsageOIDs: [String]? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_ext_key_usage, &critical, nil) else { return nil }
        let usages = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(usages) }
        var out: [String] = []
        for i in 0..<max(0, OPENSSL_sk_num(usages)) {
            guard let item = OPENSSL_sk_value(usages, i) else { continue }
            if let text = Self.dottedOID(OpaquePointer(item)) { out.append(text) }
        }
        return out
    }

    /// The `cA` flag of the basic constraints extension; nil when the extension is absent or does not decode.
    public var basicConstraintsCA: Bool? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_basic_constraints, &critical, nil) else { return nil }
        let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
        defer { BASIC_CONSTRAINTS_free(constraints) }
        return constraints.pointee.ca != 0
    }

    /// Whether the certificate is issued to `hostname` (subject alternative DNS names, else the subject CN;
    /// OpenSSL's `X509_check_host`, no partial wildcards).
    public func matchesHostname(_ hostname: String) -> Bool {
        X509_check_host(handle, hostname, hostname.utf8.count, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS), nil) == 1
    }

    static func attributes(of name: OpaquePointer) -> [NameAttribute] {
        var out: [NameAttribute] = []
        for i in 0..<max(0, X509_NAME_entry_count(name)) {
            guard let entry = X509_NAME_get_entry(name, i), let object = X509_NAME_ENTRY_get_object(entry),
                  let oid = dottedOID(object), let data = X509_NAME_ENTRY_get_data(entry),
                  let value = utf8(data) else { continue }
            out.append(NameAttribute(oid: oid, value: value))
        }
        return out
    }

    static func dottedOID(_ object: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        let n = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard n > 0, Int(n) < buffer.count else { return nil }
        return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func utf8(_ string: UnsafeMutablePointer<ASN1_STRING>) -> String? {
        var out: UnsafeMutablePointer<UInt8>?
        let n = ASN1_STRING_to_UTF8(&out, string)
        guard n >= 0, let out else { return nil }
        defer { CRYPTO_free(out, #file, #line) }
        return String(decoding: UnsafeBufferPointer(start: out, count: Int(n)), as: UTF8.self)
    }
}
