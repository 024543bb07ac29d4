import COpenSSL
import Foundation
import LatchkeySupport

/// Makes X.509 v3 certificates with OpenSSL for keys whose private half OpenSSL never holds (a TPM's): OpenSSL encodes
/// the `TBSCertificate` — names, validity, the subject key, the extensions — and the caller signs those bytes; the
/// certificate is the TBS, the signature algorithm and the signature, and OpenSSL must parse it back.
package struct X509CertificateBuilder {
    /// A subject or issuer attribute, as OpenSSL's short names spell it ("CN", "O", "OU", "ST", "C").
    package typealias NameAttribute = (name: String, value: String)

    /// An extension given as its DER value (the contents of the extnValue OCTET STRING).
    package struct RawExtension {
        package let oid: String
        package let critical: Bool
        package let value: Data
        package init(oid: String, critical: Bool, value: Data) {
            self.oid = oid
            self.critical = critical
            self.value = value
        }
    }

    package var subject: [NameAttribute]
    /// The issuer's certificate; nil for a self-signed one (the issuer is the subject).
    package var issuer: X509Certificate?
    package var serialNumber: Data
    package var notBefore: Date
    package var notAfter: Date
    /// The subject's key, as a SubjectPublicKeyInfo.
    package var subjectPublicKeyInfo: Data
    /// `basicConstraints`, critical: CA with an optional path length, or not a CA.
    package var isCertificateAuthority: Bool
    package var pathLength: Int?
    /// `extraExtensions` are added after basicConstraints, keyUsage (keyCertSign+cRLSign for a CA, digitalSignature
    /// otherwise; critical), subjectKeyIdentifier and, with an issuer, authorityKeyIdentifier.
    package var extraExtensions: [RawExtension]

    package init(subject: [NameAttribute], issuer: X509Certificate?, serialNumber: Data, notBefore: Date, notAfter: Date,
                 subjectPublicKeyInfo: Data, isCertificateAuthority: Bool, pathLength: Int? = nil,
                 extraExtensions: [RawExtension] = []) {
        self.subject = subject
        self.issuer = issuer
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectPublicKeyInfo = subjectPublicKeyInfo
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLength = pathLength
        self.extraExtensions = extraExtensions
    }

    /// `AlgorithmIdentifier { ecdsa-with-SHA256 }` (RFC 5758), the only signature algorithm made here.
    private static let ecdsaWithSHA256 = Data([0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02])

    /// The certificate's DER. `sign` gets the DER `TBSCertificate` and returns the issuer's ECDSA-with-SHA-256
    /// signature of it (DER `ECDSA-Sig-Value`).
    package func certificate(signingWith sign: (Data) throws -> Data) throws -> Data {
        guard let x509 = X509_new() else { throw CryptoError.libraryFailure("X509_new") }
        defer { X509_free(x509) }
        try fill(x509)
        let tbs = try Self.tbsCertificate(x509)
        let signature = try sign(tbs)
        let certificate = DERWriter.sequence(tbs + Self.ecdsaWithSHA256 + DERWriter.bitString(signature))
        // OpenSSL must read it back, and the issuer's key (the subject's own for a self-signed one) must verify it.
        let parsed = try X509Certificate(derRepresentation: certificate)
        guard parsed.isSigned(by: issuer ?? parsed) else {
            throw CryptoError.invalidParameter("the signature does not verify with the issuer's key")
        }
        return certificate
    }

    private func fill(_ x509: OpaquePointer) throws(CryptoError) {
        guard X509_set_version(x509, 2) == 1 else { throw .libraryFailure("X509_set_version") }
        let serial = try BIGNUMBox(serialNumber)
        guard let integer = BN_to_ASN1_INTEGER(serial.pointer, nil) else { throw .libraryFailure("BN_to_ASN1_INTEGER") }
        defer { ASN1_INTEGER_free(integer) }
        guard X509_set_serialNumber(x509, integer) == 1 else { throw .libraryFailure("X509_set_serialNumber") }

        guard let name = X509_NAME_new() else { throw .libraryFailure("X509_NAME_new") }
        defer { X509_NAME_free(name) }
        for attribute in subject {
            let added = Array(attribute.value.utf8).withUnsafeBufferPointer {
                X509_NAME_add_entry_by_txt(name, attribute.name, MBSTRING_UTF8, $0.baseAddress, Int32($0.count), -1, 0)
            }
            guard added == 1 else { throw .invalidParameter("subject attribute \(attribute.name)") }
        }
        guard X509_set_subject_name(x509, name) == 1,
              X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.handle) } ?? name) == 1 else {
            throw .libraryFailure("X509_set_subject_name")
        }
        guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970)) != nil else {
            throw .libraryFailure("ASN1_TIME_set")
        }
        let key = try DERKeys.publicKey(spki: subjectPublicKeyInfo)
        guard X509_set_pubkey(x509, key.pointer) == 1 else { throw .libraryFailure("X509_set_pubkey") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.handle ?? x509, x509, nil, nil, 0)
        let constraints = isCertificateAuthority
            ? "critical,CA:TRUE" + (pathLength.map { ",pathlen:\($0)" } ?? "") : "critical,CA:FALSE"
        try add(NID_basic_constraints, constraints, to: x509, context: &context)
        try add(NID_key_usage, isCertificateAuthority ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature",
                to: x509, context: &context)
        try add(NID_subject_key_identifier, "hash", to: x509, context: &context)
        if issuer != nil { try add(NID_authority_key_identifier, "keyid:always", to: x509, context: &context) }
        for raw in extraExtensions { try add(raw, to: x509) }
    }

    private func add(_ nid: Int32, _ value: String, to x509: OpaquePointer, context: inout X509V3_CTX) throws(CryptoError) {
        guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            ERR_clear_error()
            throw .invalidParameter("extension \(nid)=\(value)")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x509, ext, -1) == 1 else { throw .libraryFailure("X509_add_ext") }
    }

    private func add(_ raw: RawExtension, to x509: OpaquePointer) throws(CryptoError) {
        guard let object = OBJ_txt2obj(raw.oid, 1) else { throw .invalidParameter("OID \(raw.oid)") }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else { throw .libraryFailure("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(octets) }
        let set = raw.value.withUnsafeBytes { ASN1_OCTET_STRING_set(octets, $0.bindMemory(to: UInt8.self).baseAddress, Int32($0.count)) }
        guard set == 1, let ext = X509_EXTENSION_create_by_OBJ(nil, object, raw.critical ? 1 : 0, octets) else {
            throw .libraryFailure("X509_EXTENSION_create_by_OBJ")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x509, ext, -1) == 1 else { throw .libraryFailure("X509_add_ext") }
    }

    /// The DER `TBSCertificate` with ecdsa-with-SHA256 as its signature algorithm. OpenSSL sets that field only while
    /// signing, so the certificate is first signed with a throwaway P-256 key (whose signature is discarded).
    private static func tbsCertificate(_ x509: OpaquePointer) throws(CryptoError) -> Data {
        let throwaway = try ECCurve.p256.generate()
        guard X509_sign(x509, throwaway.pointer, EVP_sha256()) > 0 else { throw .libraryFailure("X509_sign") }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_re_X509_tbs(x509, &out)
        defer { if let out { CRYPTO_free(out, #file, #line) } }
        guard length > 0, let out else { throw .libraryFailure("i2d_re_X509_tbs") }
        return Data(bytes: out, count: Int(length))
    }
}
