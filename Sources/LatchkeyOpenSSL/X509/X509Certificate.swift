import COpenSSL
import Foundation
import LatchkeySupport

/// An X.509 certificate parsed by OpenSSL: the engine behind the `Security` facade's `SecX509Certificate` and
/// `SecTrust`. Immutable after parsing.
package final class X509Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
    // @unchecked: the X509 handle is only read after init (OpenSSL's X509 accessors are thread-safe
    // for concurrent readers) and freed once in deinit.
    let handle: OpaquePointer
    /// The DER bytes the certificate was parsed from.
    package let derRepresentation: Data

    /// Largest certificate accepted.
    package static let maxSize = 16 * 1024

    package init(derRepresentation der: Data) throws(CryptoError) {
        handle = try Self.parse(der)
        derRepresentation = der
    }

    /// A certificate whose OpenSSL object was parsed from other bytes than `der` (see
    /// `init(derRepresentationToleratingUnusedSignatureBits:)`). Takes ownership of `handle`.
    init(handle: OpaquePointer, derRepresentation der: Data) {
        self.handle = handle
        derRepresentation = der
    }

    /// A certificate another parser already accepted (LatchkeyCrypto's portable `Certificate`): OpenSSL must read
    /// exactly the extent of `der`; nothing is re-encoded, so the bytes are verified as given.
    package init(acceptedDER der: Data) throws(CryptoError) {
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var p: UnsafePointer<UInt8>? = base
            guard let x509 = d2i_X509(nil, &p, raw.count) else { return nil }
            guard p == base + raw.count else { X509_free(x509); return nil }
            return x509
        }
        guard let parsed else {
            ERR_clear_error()
            throw .malformedInput("X.509 DER: OpenSSL cannot read the certificate")
        }
        handle = parsed
        derRepresentation = der
    }

    /// Parses DER with OpenSSL; the result must re-encode to exactly `der`. The caller frees it.
    static func parse(_ der: Data) throws(CryptoError) -> OpaquePointer {
        guard der.count <= Self.maxSize else { throw .inputTooLarge(limit: Self.maxSize) }
        guard !der.isEmpty else { throw .malformedInput("empty certificate") }
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw -> OpaquePointer? in
            var p: UnsafePointer<UInt8>? = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_X509(nil, &p, raw.count)
        }
        guard let parsed else { throw .malformedInput("X.509 DER") }
        // Reject trailing bytes: re-encoding must give the same bytes.
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(parsed, &out)
        defer { if let out { CRYPTO_free(out, #file, #line) } }
        guard length == der.count, let out, Data(bytes: out, count: Int(length)) == der else {
            X509_free(parsed)
            throw .malformedInput("X.509 DER has trailing or non-canonical bytes")
        }
        return parsed
    }

    deinit { X509_free(handle) }

    package static func == (a: X509Certificate, b: X509Certificate) -> Bool { a.derRepresentation == b.derRepresentation }
    package func hash(into hasher: inout Hasher) { hasher.combine(derRepresentation) }

    /// X.509 version as written in the certificate (3 for v3).
    package var version: Int { Int(X509_get_version(handle)) + 1 }

    /// The SubjectPublicKeyInfo DER of the certified key.
    package var subjectPublicKeyInfo: Data {
        get throws(CryptoError) {
            guard let key = X509_get0_pubkey(handle) else { throw .malformedInput("certificate package key") }
            var out: UnsafeMutablePointer<UInt8>?
            let length = i2d_PUBKEY(key, &out)
            guard length > 0, let out else { throw .libraryFailure("i2d_PUBKEY") }
            defer { CRYPTO_free(out, #file, #line) }
            return Data(bytes: out, count: Int(length))
        }
    }

    package var notBefore: Date? { Self.date(X509_get0_notBefore(handle)) }
    package var notAfter: Date? { Self.date(X509_get0_notAfter(handle)) }

    /// Whether the basic-constraints extension marks this certificate as a CA.
    package var isX509CertificateAuthority: Bool { X509_check_ca(handle) != 0 }

    /// Values of one subject attribute, by OID (e.g. "2.5.4.11" for OU) or short name ("OU", "CN", "O", "C").
    package func subjectAttribute(_ name: String) -> [String] {
        guard let subject = X509_get_subject_name(handle) else { return [] }
        let nid = OBJ_txt2nid(name)
        guard nid != NID_undef else { return [] }
        var values: [String] = []
        var index: Int32 = -1
        while true {
            index = X509_NAME_get_index_by_NID(subject, nid, index)
            guard index >= 0, let entry = X509_NAME_get_entry(subject, index),
                  let asn1 = X509_NAME_ENTRY_get_data(entry) else { break }
            var utf8: UnsafeMutablePointer<UInt8>?
            let n = ASN1_STRING_to_UTF8(&utf8, asn1)
            if n >= 0, let utf8 {
                values.append(String(decoding: UnsafeBufferPointer(start: utf8, count: Int(n)), as: UTF8.self))
                CRYPTO_free(utf8, #file, #line)
            }
        }
        return values
    }

    /// A short human-readable name: the subject's (last) common name, else its organization, else its
    /// organizational unit (Security's `SecX509CertificateCopySubjectSummary`).
    package var subjectSummary: String? {
        for attribute in ["CN", "O", "OU"] {
            if let value = subjectAttribute(attribute).last(where: { !$0.isEmpty }) { return value }
        }
        return nil
    }

    /// The DER contents (the OCTET STRING's value) of the extension with this dotted OID, if present.
    package func extensionValue(oid: String) -> Data? {
        guard let object = OBJ_txt2obj(oid, 1) else { return nil }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(handle, object, -1)
        guard index >= 0, let ext = X509_get_ext(handle, index), let value = X509_EXTENSION_get_data(ext),
              let bytes = ASN1_STRING_get0_data(value) else { return nil }
        return Data(bytes: bytes, count: Int(ASN1_STRING_length(value)))
    }

    /// Whether the extension with this OID is marked critical.
    package func isExtensionCritical(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(handle, object, -1)
        guard index >= 0, let ext = X509_get_ext(handle, index) else { return false }
        return X509_EXTENSION_get_critical(ext) == 1
    }

    /// Whether `issuer`'s key verifies this certificate's signature.
    package func isSigned(by issuer: X509Certificate) -> Bool {
        guard let key = X509_get0_pubkey(issuer.handle) else { ERR_clear_error(); return false }
        let ok = X509_verify(handle, key) == 1
        ERR_clear_error()
        return ok
    }

    /// Verifies `self` up to one of `trustAnchors` through `intermediates`, at time `date`
    /// (attestation chains are often long expired: the caller chooses the instant).
    package func verifyChain(intermediates: [X509Certificate], trustAnchors: [X509Certificate], at date: Date) throws(CryptoError) {
        guard !trustAnchors.isEmpty else { throw .invalidParameter("no trust anchors") }
        guard let store = X509_STORE_new() else { throw .libraryFailure("X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for anchor in trustAnchors where X509_STORE_add_cert(store, anchor.handle) != 1 {
            throw .libraryFailure("X509_STORE_add_cert")
        }
        guard let chain = OPENSSL_sk_new_null() else { throw .libraryFailure("sk_new") }
        defer { OPENSSL_sk_free(chain) }
        for c in intermediates { OPENSSL_sk_push(chain, UnsafeRawPointer(c.handle)) }
        guard let ctx = X509_STORE_CTX_new() else { throw .libraryFailure("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, handle, chain) == 1 else {
            throw .libraryFailure("X509_STORE_CTX_init")
        }
        X509_STORE_CTX_set_time(ctx, 0, time_t(date.timeIntervalSince1970))
        guard X509_verify_cert(ctx) == 1 else {
            let code = X509_STORE_CTX_get_error(ctx)
            ERR_clear_error()
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "code \(code)"
            throw .untrustedCertificate(reason)
        }
    }

    package var description: String {
        "X509Certificate(subject: \(subjectAttribute("CN").joined(separator: ", ")))"
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var tm = tm()
        guard ASN1_TIME_to_tm(time, &tm) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }
}
