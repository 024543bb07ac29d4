import Foundation
import LatchkeyCrypto

/// X.509 DER as attestation statements carry it (`x5c`), read by the portable parser. Properties: a certificate
/// that parses keeps exactly the input bytes; OpenSSL (the verifier behind the seam) reads every certificate the
/// portable parse accepts; its PEM reads back to the same certificate; every accessor answers without trapping.
/// The input is also read as PEM text (the portable armour reader).
enum X509Fuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        _ = try? Certificate.all(pem: String(decoding: data, as: UTF8.self))
        // The fido-u2f parse keeps the input too, and differs from the plain one only for the quirk.
        let tolerant = try? Certificate(derRepresentationToleratingUnusedSignatureBits: data)
        if let tolerant {
            try require(tolerant.derRepresentation == data, .x509, "a tolerated certificate does not keep its DER")
            _ = tolerant.isSigned(by: tolerant)
        }
        guard let certificate = try? Certificate(derRepresentation: data) else {
            try require(tolerant?.declaresUnusedSignatureBits ?? true, .x509, "only the quirk is tolerated")
            return
        }
        try require(tolerant != nil, .x509, "the fido-u2f parse refuses a certificate the plain one takes")
        try require(certificate.derRepresentation == data, .x509, "a parsed certificate does not keep its DER")
        let pem = try? Certificate(pem: certificate.pemRepresentation)
        try require(pem == certificate, .x509, "the PEM of a certificate does not read back to it")
        _ = certificate.version
        _ = try? certificate.subjectPublicKeyInfo
        _ = certificate.notBefore
        _ = certificate.notAfter
        _ = certificate.isCertificateAuthority
        _ = certificate.description
        for name in ["CN", "OU", "O", "C", "2.5.4.11"] { _ = certificate.subjectAttribute(name) }
        // id-fido-gen-ce-aaguid, Apple's nonce extension, basic constraints.
        for oid in ["1.3.6.1.4.1.45724.1.1.4", "1.2.840.113635.100.8.2", "2.5.29.19"] {
            _ = certificate.extensionValue(oid: oid)
            _ = certificate.isExtensionCritical(oid: oid)
        }
        // TPM AIK and SafetyNet requirements; the Android KeyDescription through DERReader.
        _ = certificate.hasEmptySubject
        _ = certificate.subjectAlternativeNameDirectoryAttributes
        _ = certificate.subjectAlternativeNameDNSNames
        _ = certificate.extendedKeyUsageOIDs
        _ = certificate.basicConstraintsCA
        _ = certificate.matchesHostname("attest.android.com")
        if let value = certificate.extensionValue(oid: "1.3.6.1.4.1.11129.2.1.17") { _ = try? DERReader.parse(value) }
        _ = certificate.isSigned(by: certificate)
        do {
            try certificate.verifyChain(intermediates: [], trustAnchors: [certificate], at: Date(timeIntervalSince1970: 1_800_000_000))
        } catch .malformedInput {
            // The verifier's object is made from the same bytes: it must read whatever the portable parse accepted.
            throw FuzzPropertyViolation(.x509, "OpenSSL cannot read a certificate the portable parse accepted")
        } catch {}
    }
}
