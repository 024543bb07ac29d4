#if !LATCHKEY_APPLE_FRAMEWORKS  // checked against OpenSSL itself, which the Apple build does not link
import COpenSSL
import Foundation
import Testing
@testable import LatchkeyCrypto

// The portable certificate parse against OpenSSL: for every certificate the repository's tests use (Vectors/
// certificates.pem) and for certificates built here in shapes `openssl` does not write, each accessor equals what
// OpenSSL reports through COpenSSL; hostile input is refused without trapping.

/// What OpenSSL reports for one certificate, read through COpenSSL the way the OpenSSL-backed `Certificate` did.
final class OpenSSLReading {
    let x509: OpaquePointer

    /// nil when `d2i_X509` refuses `der` or does not read all of it.
    init?(_ der: Data) {
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var p: UnsafePointer<UInt8>? = base
            guard let x = d2i_X509(nil, &p, raw.count) else { return nil }
            guard p == base + raw.count else { X509_free(x); return nil }
            return x
        }
        ERR_clear_error()
        guard let parsed else { return nil }
        x509 = parsed
    }

    deinit { X509_free(x509) }

    static func encoded(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32) -> Data? {
        var out: UnsafeMutablePointer<UInt8>?
        let n = body(&out)
        guard n > 0, let out else { ERR_clear_error(); return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Data(bytes: out, count: Int(n))
    }

    static func text(_ object: OpaquePointer?) -> String? {
        guard let object else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let n = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard n > 0, Int(n) < buffer.count else { return nil }
        return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func utf8(_ string: UnsafePointer<ASN1_STRING>?) -> String? {
        guard let string else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        let n = ASN1_STRING_to_UTF8(&out, string)
        guard n >= 0, let out else { ERR_clear_error(); return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return String(decoding: UnsafeBufferPointer(start: out, count: Int(n)), as: UTF8.self)
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var tm = tm()
        guard ASN1_TIME_to_tm(time, &tm) == 1 else { ERR_clear_error(); return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }

    /// (RDN index, dotted OID, UTF-8 value when OpenSSL converts it) of each entry of a name.
    static func entries(_ name: OpaquePointer?) -> [(rdn: Int, oid: String, value: String?)] {
        guard let name else { return [] }
        return (0..<max(0, X509_NAME_entry_count(name))).compactMap { i in
            guard let entry = X509_NAME_get_entry(name, i), let oid = text(X509_NAME_ENTRY_get_object(entry)) else { return nil }
            return (Int(X509_NAME_ENTRY_set(entry)), oid, utf8(X509_NAME_ENTRY_get_data(entry)))
        }
    }

    /// (OID, parameters DER) of an AlgorithmIdentifier.
    static func algorithm(_ algor: UnsafePointer<X509_ALGOR>?) -> (oid: String, parameters: Data?)? {
        guard let algor, let der = encoded({ i2d_X509_ALGOR(UnsafeMutablePointer(mutating: algor), $0) }),
              let items = (try? DERReader.parse(der))?.children, let oid = text(algor.pointee.algorithm) else { return nil }
        return (oid, items.count == 2 ? items[1].derEncoding : nil)
    }

    var version: Int { Int(X509_get_version(x509)) + 1 }
    var serial: Data? {
        Self.encoded { i2d_ASN1_INTEGER(X509_get0_serialNumber(x509), $0) }.flatMap { try? DERReader.parse($0).contents }
    }
    var innerAlgorithm: (oid: String, parameters: Data?)? { Self.algorithm(X509_get0_tbs_sigalg(x509)) }
    var signature: (algorithm: (oid: String, parameters: Data?)?, unusedBits: Int, bytes: Data) {
        var sig: UnsafePointer<ASN1_BIT_STRING>?
        var alg: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(&sig, &alg, x509)
        guard let sig, let data = sig.pointee.data else { return (nil, -1, Data()) }
        let flags = Int(sig.pointee.flags)
        let unused = flags & 0x08 != 0 ? flags & 0x07 : 0
        return (Self.algorithm(alg), unused, Data(bytes: data, count: Int(sig.pointee.length)))
    }
    var issuer: [(rdn: Int, oid: String, value: String?)] { Self.entries(X509_get_issuer_name(x509)) }
    var subject: [(rdn: Int, oid: String, value: String?)] { Self.entries(X509_get_subject_name(x509)) }
    var notBefore: Date? { Self.date(X509_get0_notBefore(x509)) }
    var notAfter: Date? { Self.date(X509_get0_notAfter(x509)) }
    /// The SubjectPublicKeyInfo as the certificate holds it, and as `i2d_PUBKEY` re-encodes the key (the old accessor).
    var subjectPublicKeyInfo: Data? { Self.encoded { i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x509), $0) } }
    var reencodedPublicKey: Data? { X509_get0_pubkey(x509).flatMap { key in Self.encoded { i2d_PUBKEY(key, $0) } } }
    var extensions: [(oid: String, critical: Bool, value: Data)] {
        (0..<max(0, X509_get_ext_count(x509))).compactMap { i in
            guard let ext = X509_get_ext(x509, i), let oid = Self.text(X509_EXTENSION_get_object(ext)),
                  let data = X509_EXTENSION_get_data(ext) else { return nil }
            let bytes = ASN1_STRING_get0_data(data).map { Data(bytes: $0, count: Int(ASN1_STRING_length(data))) } ?? Data()
            return (oid, X509_EXTENSION_get_critical(ext) == 1, bytes)
        }
    }
    var isCertificateAuthority: Bool { defer { ERR_clear_error() }; return X509_check_ca(x509) != 0 }
    /// An EC key's named curve (dotted OID) and its point as encoded (OpenSSL 3's "group" and "encoded-pub-key").
    var ellipticCurvePublicKey: (curve: String, point: Data)? {
        defer { ERR_clear_error() }
        guard let key = X509_get0_pubkey(x509), EVP_PKEY_get_base_id(key) == NID_X9_62_id_ecPublicKey else { return nil }
        var group = [CChar](repeating: 0, count: 80), groupLength = 0
        guard EVP_PKEY_get_utf8_string_param(key, "group", &group, group.count, &groupLength) == 1,
              let object = OBJ_nid2obj(OBJ_sn2nid(group)), let curve = Self.text(object) else { return nil }
        var point = [UInt8](repeating: 0, count: 200), pointLength = 0
        guard EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", &point, point.count, &pointLength) == 1 else { return nil }
        return (curve, Data(point.prefix(pointLength)))
    }

    /// The old `subjectAttribute(_:)`: by NID, so only names OpenSSL knows.
    func subjectAttribute(_ name: String) -> [String]? {
        let nid = OBJ_txt2nid(name)
        ERR_clear_error()
        guard nid != NID_undef, let subject = X509_get_subject_name(x509) else { return nil }
        var values: [String] = []
        var index: Int32 = -1
        while true {
            index = X509_NAME_get_index_by_NID(subject, nid, index)
            guard index >= 0, let entry = X509_NAME_get_entry(subject, index) else { break }
            if let value = Self.utf8(X509_NAME_ENTRY_get_data(entry)) { values.append(value) }
        }
        return values
    }

    /// The old general-name accessors: directoryName attributes and DNS names of the SAN (`X509_get_ext_d2i`).
    var subjectAlternativeNames: (directory: [Certificate.NameAttribute], dns: [String])? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, &critical, nil) else { ERR_clear_error(); return nil }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var directory: [Certificate.NameAttribute] = [], dns: [String] = []
        for i in 0..<max(0, OPENSSL_sk_num(names)) {
            guard let item = OPENSSL_sk_value(names, i) else { continue }
            let name = item.assumingMemoryBound(to: GENERAL_NAME.self)
            if name.pointee.type == GEN_DIRNAME, let d = name.pointee.d.directoryName {
                directory += Self.entries(d).compactMap { e in e.value.map { Certificate.NameAttribute(oid: e.oid, value: $0) } }
            }
            if name.pointee.type == GEN_DNS, let value = name.pointee.d.dNSName, let text = Self.utf8(value) { dns.append(text) }
        }
        return (directory, dns)
    }

    var extendedKeyUsageOIDs: [String]? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(x509, NID_ext_key_usage, &critical, nil) else { ERR_clear_error(); return nil }
        let usages = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(usages) }
        return (0..<max(0, OPENSSL_sk_num(usages))).compactMap { i in
            OPENSSL_sk_value(usages, i).flatMap { Self.text(OpaquePointer($0)) }
        }
    }

    var basicConstraintsCA: Bool? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(x509, NID_basic_constraints, &critical, nil) else { ERR_clear_error(); return nil }
        let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
        defer { BASIC_CONSTRAINTS_free(constraints) }
        return constraints.pointee.ca != 0
    }

    func matchesHostname(_ host: String) -> Bool {
        defer { ERR_clear_error() }
        return X509_check_host(x509, host, host.utf8.count, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS), nil) == 1
    }

    var pem: String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard PEM_write_bio_X509(bio, x509) == 1 else { return nil }
        var pointer: UnsafeMutablePointer<CChar>?
        let n = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard n > 0, let pointer else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: n), as: UTF8.self)
    }

    /// The DER of every certificate `PEM_read_bio_X509` reads from `text`.
    static func certificates(pem text: String) -> [Data] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return [] }
            defer { BIO_free(bio); ERR_clear_error() }
            var out: [Data] = []
            while let x = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(x) }
                if let der = encoded({ i2d_X509(x, $0) }) { out.append(der) }
            }
            return out
        }
    }
}

/// Certificates of the repository's tests (Vectors/certificates.pem): each with the line that names it.
enum CertificateFixtures {
    static let pem: String = {
        guard let url = Bundle.module.url(forResource: "certificates", withExtension: "pem", subdirectory: "Vectors"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return "" }
        return text
    }()

    static let all: [(name: String, der: Data)] = {
        let blocks = pem.components(separatedBy: "-----END CERTIFICATE-----")
        return blocks.compactMap { block in
            guard let begin = block.range(of: "-----BEGIN CERTIFICATE-----") else { return nil }
            let name = block[..<begin.lowerBound].split(separator: "\n").last.map(String.init) ?? "?"
            let base64 = block[begin.upperBound...].filter { !$0.isWhitespace }
            return Data(base64Encoded: String(base64)).map { (name, $0) }
        }
    }()
}

/// A small DER writer for certificates in shapes `openssl` does not make.
enum DERBuilder {
    static func tlv(_ tag: UInt8, _ content: Data) -> Data { Data([tag]) + DERElement.lengthOctets(content.count) + content }
    static func sequence(_ items: Data...) -> Data { tlv(0x30, items.reduce(Data(), +)) }
    static func set(_ items: Data...) -> Data { tlv(0x31, items.reduce(Data(), +)) }
    static func integer(_ bytes: [UInt8]) -> Data { tlv(0x02, Data(bytes)) }
    static func string(_ tag: UInt8, _ bytes: [UInt8]) -> Data { tlv(tag, Data(bytes)) }
    static func utf8(_ text: String) -> Data { tlv(0x0c, Data(text.utf8)) }
    static func explicit(_ number: UInt8, _ content: Data) -> Data { tlv(0xa0 | number, content) }
    static func octets(_ content: Data) -> Data { tlv(0x04, content) }
    static func bits(_ unused: UInt8, _ bytes: [UInt8]) -> Data { tlv(0x03, Data([unused] + bytes)) }
    static func oid(_ dotted: String) -> Data {
        let arcs = dotted.split(separator: ".").compactMap { UInt64($0) }
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var groups: [UInt8] = [UInt8(arc & 0x7f)]
            var n = arc >> 7
            while n > 0 { groups.insert(UInt8(n & 0x7f) | 0x80, at: 0); n >>= 7 }
            out += groups
        }
        return tlv(0x06, Data(out))
    }
    /// A Name of single-attribute RDNs (OID, encoded value).
    static func name(_ attributes: [(String, Data)]) -> Data {
        tlv(0x30, attributes.reduce(Data()) { $0 + set(sequence(oid($1.0), $1.1)) })
    }
    static func extensionEntry(_ oid: String, critical: Data? = nil, _ value: Data) -> Data {
        sequence(self.oid(oid), critical ?? Data(), octets(value))
    }
}

/// A certificate built field by field; the defaults make a well-formed v3 certificate (the signature is not valid:
/// parsing does not check it).
struct CertificateBuilder {
    static let ecdsaSHA256 = DERBuilder.sequence(DERBuilder.oid("1.2.840.10045.4.3.2"))
    static let key = P256.Signing.PrivateKey().publicKey.derRepresentation

    var version: Data? = DERBuilder.explicit(0, DERBuilder.integer([2]))
    var serial = DERBuilder.integer([0x01, 0x23])
    var algorithm = ecdsaSHA256
    var outerAlgorithm: Data?
    var issuer = DERBuilder.name([("2.5.4.3", DERBuilder.utf8("Builder Issuer"))])
    var notBefore = DERBuilder.string(0x17, Array("240101000000Z".utf8))
    var notAfter = DERBuilder.string(0x18, Array("20991231235959Z".utf8))
    var subject = DERBuilder.name([("2.5.4.3", DERBuilder.utf8("Builder Subject"))])
    var spki = key
    var uniqueIDs = Data()
    var extensions: [Data]? = [DERBuilder.extensionEntry("2.5.29.19", critical: Data([1, 1, 0xff]), DERBuilder.sequence())]
    var signature = DERBuilder.bits(0, [UInt8](repeating: 0x5a, count: 70))
    var trailing = Data()
    /// The TBSCertificate's length in one octet more than DER's (a leading zero octet).
    var nonMinimalTBSLength = false

    var der: Data {
        var tbs = (version ?? Data()) + serial + algorithm + issuer + DERBuilder.sequence(notBefore, notAfter) + subject + spki
        tbs += uniqueIDs
        if let extensions { tbs += DERBuilder.explicit(3, DERBuilder.tlv(0x30, extensions.reduce(Data(), +))) }
        let tbsElement = nonMinimalTBSLength ? Data([0x30, 0x83, 0x00]) + DERElement.lengthOctets(tbs.count).dropFirst() + tbs
            : DERBuilder.tlv(0x30, tbs)
        return DERBuilder.sequence(tbsElement, outerAlgorithm ?? algorithm, signature) + trailing
    }

    func with(_ change: (inout CertificateBuilder) -> Void) -> CertificateBuilder {
        var copy = self
        change(&copy)
        return copy
    }
}

@Suite struct CertificateParsingTests {
    static let hostnames = ["attest.android.com", "leaf.example.test", "LEAF.Example.Test", "127.0.0.1", "x.example.test",
                            ".example.test", "example.test", "a.b.example.test", "foo.example.test", "exact.example.test",
                            "y.wild.example.test", "wild.example.test", "xn--bcher-kva.example.test",
                            "z.xn--bcher-kva.example.test", "x.test", "x.cn.example.test", "second.example.test",
                            "Builder Subject", "", "*.example.test", "mds.test", "leaf.example.test\0"]
    static let attributeNames = ["CN", "O", "OU", "C", "L", "ST", "serialNumber", "emailAddress", "DC", "title", "GN",
                                 "SN", "UID", "street", "commonName", "organizationalUnitName", "2.5.4.3", "2.5.4.11",
                                 "2.5.4.5", "0.9.2342.19200300.100.1.25", "nonsense", "2.5.4"]

    /// Every accessor of `certificate` against OpenSSL's reading of the same DER.
    static func expectSameAsOpenSSL(_ certificate: Certificate, _ name: String,
                                    structureOnly: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let openssl = OpenSSLReading(certificate.verificationDER) else {
            Issue.record("\(name): OpenSSL does not read what the portable parse accepted", sourceLocation: sourceLocation)
            return
        }
        let f = certificate.fields
        func check(_ ok: Bool, _ what: String) {
            if !ok { Issue.record("\(name): \(what) differs from OpenSSL's", sourceLocation: sourceLocation) }
        }
        check(certificate.version == openssl.version, "version")
        check(f.serialNumber == openssl.serial, "serial number")
        let inner = openssl.innerAlgorithm, outer = openssl.signature.algorithm
        check(f.signatureAlgorithm.oid == inner?.oid && f.signatureAlgorithm.parameters == inner?.parameters, "TBS algorithm")
        check(f.signatureAlgorithm.oid == outer?.oid && f.signatureAlgorithm.parameters == outer?.parameters, "algorithm")
        check(f.signature == openssl.signature.bytes, "signature")
        check(f.signatureUnusedBits == openssl.signature.unusedBits
              || certificate.verificationDER != certificate.derRepresentation, "signature unused bits")
        check(f.issuer.attributes.map { "\($0.rdn) \($0.oid) \($0.value ?? "-")" }
              == openssl.issuer.map { "\($0.rdn) \($0.oid) \($0.value ?? "-")" }, "issuer")
        check(f.subject.attributes.map { "\($0.rdn) \($0.oid) \($0.value ?? "-")" }
              == openssl.subject.map { "\($0.rdn) \($0.oid) \($0.value ?? "-")" }, "subject")
        check(certificate.notBefore == openssl.notBefore, "notBefore")
        check(certificate.notAfter == openssl.notAfter, "notAfter")
        check((try? certificate.subjectPublicKeyInfo) == openssl.subjectPublicKeyInfo, "subjectPublicKeyInfo")
        check(f.extensions.map { "\($0.oid) \($0.isCritical) \($0.value.hexString)" }
              == openssl.extensions.map { "\($0.oid) \($0.critical) \($0.value.hexString)" }, "extensions")
        check(certificate.hasEmptySubject == openssl.subject.isEmpty, "hasEmptySubject")
        check(certificate.declaresUnusedSignatureBits == (f.signatureUnusedBits != 0), "declaresUnusedSignatureBits")
        for ext in openssl.extensions {
            check(certificate.extensionValue(oid: ext.oid) == ext.value, "extensionValue(\(ext.oid))")
            check(certificate.isExtensionCritical(oid: ext.oid) == ext.critical, "isExtensionCritical(\(ext.oid))")
        }
        let absent = "1.3.6.1.4.1.99999.404"
        if !openssl.extensions.contains(where: { $0.oid == absent }) {
            check(certificate.extensionValue(oid: absent) == nil && !certificate.isExtensionCritical(oid: absent), "absent extension")
        }
        guard !structureOnly else { return }
        // The accessors decoded from extensions, and the rules OpenSSL applies (X509_check_ca, X509_check_host).
        check(certificate.isCertificateAuthority == openssl.isCertificateAuthority, "isCertificateAuthority")
        check(certificate.basicConstraintsCA == openssl.basicConstraintsCA, "basicConstraintsCA")
        check(certificate.extendedKeyUsageOIDs == openssl.extendedKeyUsageOIDs, "extendedKeyUsageOIDs")
        let san = openssl.subjectAlternativeNames
        check(certificate.subjectAlternativeNameDirectoryAttributes == san?.directory, "SAN directory attributes")
        check(certificate.subjectAlternativeNameDNSNames == san?.dns ?? [], "SAN DNS names")
        check(certificate.isSubjectAlternativeNameCritical
              == openssl.extensions.contains { $0.oid == "2.5.29.17" && $0.critical }, "isSubjectAlternativeNameCritical")
        for host in hostnames + certificate.subjectAlternativeNameDNSNames {
            check(certificate.matchesHostname(host) == openssl.matchesHostname(host), "matchesHostname(\(host))")
        }
        for attribute in attributeNames {
            let theirs = openssl.subjectAttribute(attribute)
            // OpenSSL finds attributes by NID: a dotted OID it has no name for finds nothing there.
            check(theirs == nil || certificate.subjectAttribute(attribute) == theirs, "subjectAttribute(\(attribute))")
        }
        let summary = ["CN", "O", "OU"].lazy.compactMap { openssl.subjectAttribute($0)?.last { !$0.isEmpty } }.first
        check(certificate.subjectSummary == summary, "subjectSummary")
        check(certificate.description == "Certificate(subject: \((openssl.subjectAttribute("CN") ?? []).joined(separator: ", ")))",
              "description")
        // The PEM is of `derRepresentation` (for the U2F quirk, not the verifier's repaired copy).
        check(certificate.pemRepresentation == OpenSSLReading(certificate.derRepresentation)?.pem, "pemRepresentation")
        check((try? certificate.subjectPublicKeyInfo) == openssl.reencodedPublicKey
              || openssl.reencodedPublicKey == nil, "subjectPublicKeyInfo (re-encoded by i2d_PUBKEY)")
        let ecKey = certificate.ellipticCurvePublicKey, theirs = openssl.ellipticCurvePublicKey
        check(ecKey?.curve == theirs?.curve && ecKey?.point == theirs?.point, "ellipticCurvePublicKey")
    }

    @Test func everyFixtureCertificateReadsAsOpenSSLReadsIt() throws {
        let fixtures = CertificateFixtures.all
        #expect(fixtures.count >= 36)
        for (name, der) in fixtures {
            let certificate = try Certificate(derRepresentation: der)
            #expect(certificate.derRepresentation == der)
            Self.expectSameAsOpenSSL(certificate, name)
        }
    }

    @Test func theFixturesCoverWhatTheAttestationChecksRead() throws {
        let certificates = try CertificateFixtures.all.map { try Certificate(derRepresentation: $0.der) }
        #expect(certificates.contains { $0.version == 1 } && certificates.contains { $0.version == 3 })
        #expect(certificates.contains { $0.hasEmptySubject && $0.isSubjectAlternativeNameCritical })
        #expect(certificates.contains { $0.subjectAlternativeNameDirectoryAttributes?.count == 3 })
        #expect(certificates.contains { $0.extendedKeyUsageOIDs == ["2.23.133.8.3"] })
        #expect(certificates.contains { $0.matchesHostname("attest.android.com") })
        #expect(certificates.contains { $0.isCertificateAuthority && $0.basicConstraintsCA == nil })
        #expect(certificates.contains { !$0.isCertificateAuthority && $0.basicConstraintsCA == true })
        #expect(certificates.contains { $0.extensionValue(oid: "1.3.6.1.4.1.11129.2.1.17") != nil })
        #expect(certificates.contains { $0.extensionValue(oid: "1.3.6.1.4.1.45724.1.1.4") != nil })
        #expect(certificates.contains { $0.ellipticCurvePublicKey?.curve == "1.2.840.10045.3.1.7" })
        #expect(certificates.contains { $0.ellipticCurvePublicKey == nil })
        let stringTags = Set(certificates.flatMap { c in
            c.fields.subject.attributes.compactMap { try? DERReader.parse($0.rawValue).tagNumber }
        })
        #expect(stringTags.isSuperset(of: [12, 19, 20, 22, 30]))
    }

    @Test func pemBundlesReadAsOpenSSLReadsThem() throws {
        let text = CertificateFixtures.pem
        let ours = try Certificate.all(pem: text).map(\.derRepresentation)
        #expect(ours == OpenSSLReading.certificates(pem: text))
        #expect(ours == CertificateFixtures.all.map(\.der))
        #expect(try Certificate(pem: text).derRepresentation == ours.first)
        // CRLF line ends, trailing blanks and the older "X509 CERTIFICATE" label are read too.
        let first = try Certificate(derRepresentation: ours[0])
        let crlf = first.pemRepresentation.replacingOccurrences(of: "\n", with: " \r\n")
        #expect(try Certificate(pem: crlf) == first)
        let old = first.pemRepresentation.replacingOccurrences(of: " CERTIFICATE-----", with: " X509 CERTIFICATE-----")
        #expect(OpenSSLReading.certificates(pem: old) == [ours[0]])
        #expect(try Certificate(pem: old) == first)
        // A label that differs at the END line, an END line missing before the next BEGIN, a header, junk: refused.
        let lines = first.pemRepresentation.split(separator: "\n").map(String.init)
        let mismatched = (lines.dropLast() + ["-----END X509 CERTIFICATE-----"]).joined(separator: "\n")
        let unended = lines.dropLast().joined(separator: "\n") + "\n" + first.pemRepresentation
        let header = ([lines[0], "Proc-Type: 4,ENCRYPTED"] + lines.dropFirst()).joined(separator: "\n")
        let junk = ([lines[0], "MIIB*junk"] + lines.dropFirst()).joined(separator: "\n")
        for bad in [mismatched, unended, header, junk] {
            #expect(throws: CertificatePEMError.self) { try Certificate.all(pem: bad) }
        }
    }

    /// Certificates in shapes the fixtures lack, each read by OpenSSL the same way.
    static let builtCases: [(String, CertificateBuilder)] = {
        let b = CertificateBuilder()
        typealias D = DERBuilder
        let allStrings = D.name([
            ("2.5.4.3", D.utf8("Ünïcödé 한국어 𝄞")), ("2.5.4.10", D.string(0x13, Array("Printable '()+,-./:=? *&".utf8))),
            ("1.2.840.113549.1.9.1", D.string(0x16, Array("ia5@example.test".utf8))),
            ("2.5.4.7", D.string(0x14, [0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68])),
            ("2.5.4.11", D.string(0x1e, [0xd5, 0x5c, 0xad, 0x6d])),
            ("2.5.4.8", D.string(0x1c, [0, 0, 0, 0x55, 0, 1, 0xd1, 0x1e])),
            ("2.5.4.5", D.string(0x12, Array("0123 456".utf8))), ("2.5.4.12", D.bits(0, [0x2a])),
            ("1.3.6.1.4.1.99999.7", D.sequence(D.integer([0x2a]))), ("1.3.6.1.4.1.99999.8", D.tlv(0x0d, Data([1]))),
        ])
        let ext = D.extensionEntry
        let critical = Data([1, 1, 0xff])
        return [
            ("every string type", b.with { $0.subject = allStrings; $0.issuer = allStrings }),
            ("multi-valued RDN", b.with {
                $0.subject = D.sequence(D.set(D.sequence(D.oid("2.5.4.3"), D.utf8("A")), D.sequence(D.oid("2.5.4.10"), D.utf8("B"))),
                                        D.set(D.sequence(D.oid("2.5.4.3"), D.utf8("C"))))
            }),
            ("empty names", b.with { $0.subject = D.sequence(); $0.issuer = D.sequence() }),
            ("UTCTime bounds", b.with {
                $0.notBefore = D.string(0x17, Array("500101000000Z".utf8)); $0.notAfter = D.string(0x17, Array("491231235959Z".utf8))
            }),
            ("GeneralizedTime bounds", b.with {
                $0.notBefore = D.string(0x18, Array("18500101000000Z".utf8)); $0.notAfter = D.string(0x18, Array("99991231235959Z".utf8))
            }),
            ("a leap day", b.with { $0.notBefore = D.string(0x18, Array("20240229120000Z".utf8)) }),
            ("explicit v1, self-issued, ECDSA", b.with {
                $0.version = D.explicit(0, D.integer([0])); $0.extensions = nil; $0.issuer = $0.subject
            }),
            ("v1 without version, self-issued after case and space folding", b.with {
                $0.version = nil; $0.extensions = nil
                $0.subject = D.name([("2.5.4.3", D.utf8("  Same   NAME "))]); $0.issuer = D.name([("2.5.4.3", D.utf8("same name"))])
            }),
            ("v1 self-issued, RSA algorithm over an EC key", b.with {
                $0.version = nil; $0.extensions = nil; $0.issuer = $0.subject
                $0.algorithm = D.sequence(D.oid("1.2.840.113549.1.1.11"), D.tlv(0x05, Data()))
            }),
            ("v1 issued by another", b.with { $0.version = nil; $0.extensions = nil }),
            ("v2 with unique identifiers", b.with {
                $0.version = D.explicit(0, D.integer([1])); $0.extensions = nil
                $0.uniqueIDs = D.tlv(0x81, Data([0, 1, 2])) + D.tlv(0x82, Data([4, 0xf0]))
            }),
            ("negative serial", b.with { $0.serial = D.integer([0x80, 0x01]) }),
            ("20-octet serial", b.with { $0.serial = D.integer([0x00] + [UInt8](repeating: 0xfe, count: 19)) }),
            ("zero serial", b.with { $0.serial = D.integer([0x00]) }),
            ("no extensions in v3", b.with { $0.extensions = nil }),
            ("empty extension list", b.with { $0.extensions = [] }),
            ("explicit critical FALSE and explicit cA FALSE", b.with {
                $0.extensions = [ext("2.5.29.19", Data([1, 1, 0]), D.sequence(Data([1, 1, 0])))]
            }),
            ("CA with path length", b.with { $0.extensions = [ext("2.5.29.19", critical, D.sequence(Data([1, 1, 0xff]), D.integer([3])))] }),
            ("key usage written with trailing zero bits, keyCertSign", b.with {
                $0.extensions = [ext("2.5.29.15", nil, D.bits(0, [0x06]))]
            }),
            ("key usage with padding bits set", b.with { $0.extensions = [ext("2.5.29.15", nil, D.bits(2, [0x87]))] }),
            ("key usage decipherOnly only", b.with { $0.extensions = [ext("2.5.29.15", nil, D.bits(7, [0x00, 0x80]))] }),
            ("Netscape cert type objCA", b.with { $0.extensions = [ext("2.16.840.1.113730.1.1", nil, D.bits(0, [0x01]))] }),
            ("Netscape cert type sslClient", b.with { $0.extensions = [ext("2.16.840.1.113730.1.1", nil, D.bits(7, [0x80]))] }),
            ("empty extended key usage", b.with { $0.extensions = [ext("2.5.29.37", nil, D.sequence())] }),
            ("extended key usage that is not OIDs", b.with {
                $0.extensions = [ext("2.5.29.37", nil, D.sequence(D.integer([1]))), ext("2.5.29.15", nil, D.bits(2, [0x04]))]
            }),
            ("every general name", b.with {
                let names = D.sequence(
                    D.tlv(0xa0, D.oid("1.3.6.1.4.1.311.20.2.3") + D.explicit(0, D.utf8("upn@example.test"))),
                    D.tlv(0x81, Data("mail@example.test".utf8)), D.tlv(0x82, Data("*.example.test".utf8)),
                    D.tlv(0x82, Data()), D.tlv(0xa4, D.name([("2.5.4.3", D.utf8("Directory")), ("2.5.4.11", D.utf8("Unit"))])),
                    D.tlv(0x86, Data("https://example.test/".utf8)), D.tlv(0x87, Data([127, 0, 0, 1])),
                    D.tlv(0x88, Data([0x2a, 0x03])), D.tlv(0x82, Data("leaf.example.test".utf8)))
                $0.extensions = [ext("2.5.29.17", critical, names)]
            }),
            ("subject alternative name that does not decode, CN fallback", b.with {
                $0.subject = D.name([("2.5.4.3", D.utf8("leaf.example.test"))])
                $0.extensions = [ext("2.5.29.17", nil, D.octets(Data()))]
            }),
            ("SAN without DNS names, CN fallback", b.with {
                $0.subject = D.name([("2.5.4.3", D.utf8("x.example.test"))])
                $0.extensions = [ext("2.5.29.17", nil, D.sequence(D.tlv(0x87, Data([127, 0, 0, 1]))))]
            }),
            ("authority key identifier that does not decode", b.with {
                $0.extensions = [ext("2.5.29.35", nil, D.octets(Data([1]))), ext("2.5.29.15", nil, D.bits(2, [0x04]))]
            }),
            ("subject key identifier that does not decode", b.with {
                $0.extensions = [ext("2.5.29.14", nil, D.sequence()), ext("2.5.29.15", nil, D.bits(2, [0x04]))]
            }),
            ("unknown critical extension", b.with {
                $0.extensions = [ext("1.3.6.1.4.1.99999.1", critical, D.tlv(0x05, Data())), ext("2.5.29.15", nil, D.bits(2, [0x04]))]
            }),
            ("RSA algorithm with NULL parameters", b.with { $0.algorithm = D.sequence(D.oid("1.2.840.113549.1.1.11"), D.tlv(0x05, Data())) }),
            ("OID with a 128-bit arc", b.with {
                // 2.25.329800735698586629295641978511506172918 (a UUID arc).
                let oid = D.tlv(0x06, Data(hexString: "6983f09da7ebcfdee0c7a1a7b2c0948cc8f9d776") ?? Data())
                $0.subject = D.sequence(D.set(D.sequence(oid, D.utf8("uuid arc"))))
            }),
        ]
    }()

    @Test(arguments: builtCases.map(\.0)) func builtCertificatesReadAsOpenSSLReadsThem(_ name: String) throws {
        let builder = try #require(Self.builtCases.first { $0.0 == name }?.1)
        let certificate = try Certificate(derRepresentation: builder.der)
        Self.expectSameAsOpenSSL(certificate, name)
    }

    @Test func theBuiltShapesSayWhatTheyShould() throws {
        func certificate(_ name: String) throws -> Certificate {
            try Certificate(derRepresentation: try #require(Self.builtCases.first { $0.0 == name }?.1).der)
        }
        let strings = try certificate("every string type")
        #expect(strings.subjectAttribute("CN") == ["Ünïcödé 한국어 𝄞"])
        #expect(strings.subjectAttribute("L") == ["Zürich"] && strings.subjectAttribute("OU") == ["한국"])
        #expect(strings.subjectAttribute("ST") == ["U𝄞"] && strings.subjectAttribute("1.3.6.1.4.1.99999.7") == [])
        #expect(strings.fields.subject.attributes.last?.value == nil)
        #expect(try certificate("explicit v1, self-issued, ECDSA").isCertificateAuthority)
        #expect(try certificate("v1 without version, self-issued after case and space folding").isCertificateAuthority)
        #expect(try !certificate("v1 self-issued, RSA algorithm over an EC key").isCertificateAuthority)
        #expect(try certificate("explicit critical FALSE and explicit cA FALSE").basicConstraintsCA == false)
        #expect(try certificate("every general name").subjectAlternativeNameDNSNames == ["*.example.test", "", "leaf.example.test"])
        #expect(try certificate("OID with a 128-bit arc").fields.subject.attributes.first?.oid
                == "2.25.329800735698586629295641978511506172918")
        #expect(try certificate("UTCTime bounds").notAfter == Date(timeIntervalSince1970: 2_524_607_999))
        #expect(try certificate("UTCTime bounds").notBefore == Date(timeIntervalSince1970: -631_152_000))
    }

    @Test func theFidoU2FQuirkKeepsItsDERAndRepairsOnlyTheVerifiersCopy() throws {
        let der = try #require(CertificateFixtures.all.first { $0.name.hasPrefix("U2F leaf") }?.der)
        var quirk = der
        quirk[quirk.count - 1] &= 0xf8
        let countOffset = quirk.count - (try Certificate(derRepresentation: der)).fields.signature.count - 1
        quirk[countOffset] = 3
        let strict = try Certificate(derRepresentation: quirk)
        let tolerant = try Certificate(derRepresentationToleratingUnusedSignatureBits: quirk)
        #expect(strict.declaresUnusedSignatureBits && tolerant.declaresUnusedSignatureBits)
        #expect(tolerant.derRepresentation == quirk && strict.verificationDER == quirk)
        var repaired = quirk
        repaired[countOffset] = 0
        #expect(tolerant.verificationDER == repaired)
        Self.expectSameAsOpenSSL(strict, "quirk")
        Self.expectSameAsOpenSSL(tolerant, "quirk, tolerated")
        // Declared bits that are not zero, or more than 7, are malformed for both initializers.
        var nonzero = quirk
        nonzero[nonzero.count - 1] |= 0x01
        var eight = quirk
        eight[countOffset] = 8
        for bad in [nonzero, eight] {
            #expect(throws: CryptoError.self) { try Certificate(derRepresentation: bad) }
            #expect(throws: CryptoError.self) { try Certificate(derRepresentationToleratingUnusedSignatureBits: bad) }
        }
    }

    /// Malformed certificates: each is refused with a `CryptoError`, and none traps.
    static let hostileCases: [(String, Data)] = {
        let b = CertificateBuilder()
        typealias D = DERBuilder
        func withSubjectValue(_ value: Data) -> Data { b.with { $0.subject = D.name([("2.5.4.3", value)]) }.der }
        func withTime(_ tag: UInt8, _ text: String) -> Data { b.with { $0.notBefore = D.string(tag, Array(text.utf8)) }.der }
        let good = b.der
        let content = (try? DERReader.parse(good))?.contents ?? Data()
        let ext = D.extensionEntry
        let basic = ext("2.5.29.19", nil, D.sequence())
        return [
            ("empty", Data()),
            ("one byte", Data([0x30])),
            ("trailing byte", good + Data([0x00])),
            ("trailing element inside the certificate", D.sequence(D.tlv(0x30, Data()), CertificateBuilder.ecdsaSHA256,
                                                                    D.bits(0, [1]), D.tlv(0x05, Data()))),
            ("extra field in TBSCertificate", b.with { $0.uniqueIDs = D.tlv(0x05, Data()) }.der),
            ("long-form length with a leading zero octet", Data([0x30, 0x83, 0x00]) + DERElement.lengthOctets(content.count).dropFirst() + content),
            ("long-form length for a short length", Data([0x30, 0x81, 0x05, 0x02, 0x01, 0x01, 0x05, 0x00])),
            ("indefinite length", Data([0x30, 0x80]) + content + Data([0, 0])),
            ("huge length", Data([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02, 0x01, 0x01])),
            ("five length octets", Data([0x30, 0x85, 0x00, 0x00, 0x00, 0x01, 0x00, 0x05, 0x00])),
            ("larger than 16 KiB", D.sequence(D.octets(Data(count: 17_000)))),
            ("invalid UTF8String", withSubjectValue(D.string(0x0c, [0x41, 0xc3, 0x28]))),
            ("overlong UTF8String", withSubjectValue(D.string(0x0c, [0xc0, 0xaf]))),
            ("UTF8String surrogate", withSubjectValue(D.string(0x0c, [0xed, 0xa0, 0x80]))),
            ("PrintableString with @", withSubjectValue(D.string(0x13, Array("a@b".utf8)))),
            ("IA5String with a high octet", withSubjectValue(D.string(0x16, [0x61, 0xe9]))),
            ("BMPString of odd length", withSubjectValue(D.string(0x1e, [0x00, 0x41, 0x00]))),
            ("BMPString surrogate", withSubjectValue(D.string(0x1e, [0xd8, 0x00, 0xdc, 0x00]))),
            ("UniversalString above U+10FFFF", withSubjectValue(D.string(0x1c, [0x00, 0x11, 0x00, 0x00]))),
            ("UniversalString of 3 octets", withSubjectValue(D.string(0x1c, [0x00, 0x00, 0x41]))),
            ("NumericString with a letter", withSubjectValue(D.string(0x12, Array("12a".utf8)))),
            ("constructed UTF8String", withSubjectValue(D.tlv(0x2c, D.utf8("a")))),
            // Attribute value types OpenSSL refuses in a name.
            ("VisibleString value", withSubjectValue(D.string(0x1a, Array("visible".utf8)))),
            ("INTEGER value", withSubjectValue(D.integer([1]))),
            ("OCTET STRING value", withSubjectValue(D.octets(Data([1])))),
            ("UTCTime value", withSubjectValue(D.string(0x17, Array("240101000000Z".utf8)))),
            ("context-specific value", withSubjectValue(D.tlv(0x80, Data([1])))),
            ("BIT STRING value declaring 9 unused bits", withSubjectValue(D.bits(9, [0]))),
            // Algorithm parameters OpenSSL's ANY decoding refuses.
            ("NULL parameters with contents", b.with { $0.spki = D.sequence(D.sequence(D.oid("1.2.840.10045.2.1"), D.tlv(0x05, Data([0]))), D.bits(0, [4, 1])) }.der),
            ("BOOLEAN parameters of no octet", b.with { $0.algorithm = D.sequence(D.oid("1.2.840.10045.4.3.2"), D.tlv(0x01, Data())) }.der),
            ("malformed OID parameters", b.with {
                $0.spki = D.sequence(D.sequence(D.oid("1.2.840.10045.2.1"), D.tlv(0x06, Data([0x2a, 0x86]))), D.bits(0, [4, 1]))
            }.der),
            ("INTEGER parameters with a redundant octet", b.with { $0.algorithm = D.sequence(D.oid("1.2.840.10045.4.3.2"), D.integer([0, 1])) }.der),
            ("empty RDN", b.with { $0.subject = D.sequence(D.set()) }.der),
            ("attribute without a value", b.with { $0.subject = D.sequence(D.set(D.sequence(D.oid("2.5.4.3")))) }.der),
            ("name that is a SET", b.with { $0.subject = D.set() }.der),
            ("duplicate extensions", b.with { $0.extensions = [basic, basic] }.der),
            ("duplicate extensions apart", b.with {
                $0.extensions = [basic, ext("2.5.29.15", nil, D.bits(2, [0x04])), basic]
            }.der),
            ("extensions in a v1 certificate", b.with { $0.version = nil }.der),
            ("extensions in a v2 certificate", b.with { $0.version = D.explicit(0, D.integer([1])) }.der),
            ("unique identifier in v1", b.with { $0.version = nil; $0.extensions = nil; $0.uniqueIDs = D.tlv(0x81, Data([0])) }.der),
            ("version 4", b.with { $0.version = D.explicit(0, D.integer([3])) }.der),
            ("negative version", b.with { $0.version = D.explicit(0, D.integer([0xff])) }.der),
            ("version with a redundant octet", b.with { $0.version = D.explicit(0, D.integer([0, 2])) }.der),
            ("serial with a redundant octet", b.with { $0.serial = D.integer([0x00, 0x01]) }.der),
            ("serial with a redundant 0xFF", b.with { $0.serial = D.integer([0xff, 0x80]) }.der),
            ("empty serial", b.with { $0.serial = D.integer([]) }.der),
            ("algorithms differ inside and outside", b.with {
                $0.outerAlgorithm = D.sequence(D.oid("1.2.840.10045.4.3.3"))
            }.der),
            ("algorithm parameters differ inside and outside", b.with {
                $0.outerAlgorithm = D.sequence(D.oid("1.2.840.10045.4.3.2"), D.tlv(0x05, Data()))
            }.der),
            ("signature declaring 8 unused bits", b.with { $0.signature = D.bits(8, [0x00]) }.der),
            ("signature with padding bits set", b.with { $0.signature = D.bits(1, [0x01]) }.der),
            ("empty signature declaring an unused bit", b.with { $0.signature = D.bits(1, []) }.der),
            ("signature as an OCTET STRING", b.with { $0.signature = D.octets(Data([1])) }.der),
            ("UTCTime without seconds", withTime(0x17, "2401010000Z")),
            ("UTCTime with an offset", withTime(0x17, "240101000000+0100")),
            ("UTCTime without Z", withTime(0x17, "240101000000")),
            ("GeneralizedTime with a fraction", withTime(0x18, "20240101000000.5Z")),
            ("GeneralizedTime with a two-digit year", withTime(0x18, "240101000000Z")),
            ("month 13", withTime(0x17, "241301000000Z")),
            ("February 30", withTime(0x17, "240230000000Z")),
            ("February 29 of 2023", withTime(0x18, "20230229000000Z")),
            ("hour 24", withTime(0x17, "240101240000Z")),
            ("second 60", withTime(0x17, "240101235960Z")),
            ("time with a sign", withTime(0x17, "24-101000000Z")),
            ("time as an INTEGER", withTime(0x02, "1")),
            ("critical flag 0x01", b.with { $0.extensions = [ext("2.5.29.19", Data([1, 1, 1]), D.sequence())] }.der),
            ("critical flag of two octets", b.with { $0.extensions = [ext("2.5.29.19", Data([1, 2, 0, 0xff]), D.sequence())] }.der),
            ("extension value that is no OCTET STRING", b.with {
                $0.extensions = [D.sequence(D.oid("2.5.29.19"), D.sequence())]
            }.der),
            ("extension list that is no SEQUENCE", b.with { $0.extensions = nil; $0.uniqueIDs = D.explicit(3, D.set()) }.der),
            ("OID with a leading 0x80", b.with { $0.algorithm = D.sequence(D.tlv(0x06, Data([0x2a, 0x80, 0x01]))) }.der),
            ("OID cut in an arc", b.with { $0.algorithm = D.sequence(D.tlv(0x06, Data([0x2a, 0x86]))) }.der),
            ("empty OID", b.with { $0.algorithm = D.sequence(D.tlv(0x06, Data())) }.der),
            ("OID arc above 224 bits", b.with {
                $0.algorithm = D.sequence(D.tlv(0x06, Data([0x2a] + [UInt8](repeating: 0xff, count: 33) + [0x01])))
            }.der),
            ("SubjectPublicKeyInfo without its BIT STRING", b.with { $0.spki = D.sequence(D.sequence(D.oid("1.2.840.10045.2.1"))) }.der),
            ("BER length inside the certificate", b.with { $0.nonMinimalTBSLength = true }.der),
            ("nesting beyond the depth limit", b.with {
                var deep = D.tlv(0x05, Data())
                for _ in 0..<20 { deep = D.sequence(deep) }
                $0.algorithm = D.sequence(D.oid("1.2.840.10045.4.3.2"), deep)
            }.der),
        ]
    }()

    @Test func hostileCertificatesAreRefused() throws {
        #expect(OpenSSLReading(CertificateBuilder().der) != nil)
        for (name, der) in Self.hostileCases {
            #expect(throws: CryptoError.self, "\(name)") { try Certificate(derRepresentation: der) }
            #expect(throws: CryptoError.self, "\(name)") { try Certificate(derRepresentationToleratingUnusedSignatureBits: der) }
        }
        #expect(throws: CryptoError.inputTooLarge(limit: Certificate.maxSize)) {
            try Certificate(derRepresentation: Data(count: Certificate.maxSize + 1))
        }
    }

    @Test func everyTruncationOfEveryFixtureIsRefused() {
        for (name, der) in CertificateFixtures.all {
            for length in 0..<der.count {
                if (try? Certificate(derRepresentation: der.prefix(length))) != nil {
                    Issue.record("\(name): the first \(length) octets parse")
                }
            }
        }
    }

    /// Seeded mutations of every fixture (bytes changed, inserted, removed): a mutant the portable parse accepts
    /// is one OpenSSL reads too, with the same fields.
    @Test func mutantsTheParseAcceptsReadTheSameInOpenSSL() {
        var state: UInt64 = 0x2545_f491_4f6c_dd1d
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state & 0x7fff_ffff)
        }
        var accepted = 0
        for (name, der) in CertificateFixtures.all {
            for round in 0..<200 {
                var bytes = [UInt8](der)
                for _ in 0..<(1 + next() % 3) {
                    let at = next() % bytes.count
                    switch next() % 4 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: next())
                    case 1: bytes[at] ^= UInt8(1 << (next() % 8))
                    case 2: bytes.insert(UInt8(truncatingIfNeeded: next()), at: at)
                    default: bytes.remove(at: at)
                    }
                }
                let mutant = Data(bytes)
                guard let certificate = try? Certificate(derRepresentation: mutant) else {
                    _ = try? Certificate(derRepresentationToleratingUnusedSignatureBits: mutant)
                    continue
                }
                accepted += 1
                Self.expectSameAsOpenSSL(certificate, "\(name), mutant \(round)", structureOnly: true)
                _ = certificate.isCertificateAuthority
                _ = certificate.subjectAlternativeNameDirectoryAttributes
                _ = certificate.matchesHostname("leaf.example.test")
                _ = certificate.pemRepresentation
            }
        }
        #expect(accepted > 100)
    }

    @Test func hostnameRulesMatchOpenSSLsForPatternsAndNames() throws {
        let patterns = ["*.example.test", "f*.example.test", "*f.example.test", "*.test", "*", "a.*.example.test",
                        "*.*.example.test", "xn--*.example.test", "*.xn--bcher-kva.example.test", "-a.example.test",
                        "a-.example.test", "a..example.test", "example.test.", "*.Example.TEST", "**.example.test",
                        "a_b.example.test", "*.example.test.", "ex ample.test"]
        let hosts = ["a.example.test", "A.EXAMPLE.TEST", "example.test", "a.b.example.test", "foo.example.test",
                     "*.example.test", "xn--bcher-kva.example.test", "a.xn--bcher-kva.example.test", ".example.test",
                     ".test", "example.test.", "-a.example.test", "a-.example.test", "a..example.test", "f.example.test",
                     "x.test", "a_b.example.test", "z"]
        for pattern in patterns {
            let der = CertificateBuilder().with {
                $0.extensions = [DERBuilder.extensionEntry("2.5.29.17", DERBuilder.sequence(DERBuilder.tlv(0x82, Data(pattern.utf8))))]
            }.der
            let certificate = try Certificate(derRepresentation: der)
            let openssl = try #require(OpenSSLReading(der))
            for host in hosts {
                #expect(certificate.matchesHostname(host) == openssl.matchesHostname(host), "\(pattern) vs \(host)")
            }
        }
    }
}
#endif
