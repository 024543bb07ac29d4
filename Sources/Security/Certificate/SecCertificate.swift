#if os(Linux)
import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// `SecCertificate`: an X.509 certificate, parsed by OpenSSL (the engine's `X509Certificate`).
/// Equal certificates have equal DER bytes.
public final class SecCertificate: Hashable, CustomStringConvertible {
    let certificate: X509Certificate

    init(_ certificate: X509Certificate) { self.certificate = certificate }

    public static func == (a: SecCertificate, b: SecCertificate) -> Bool { a.certificate == b.certificate }
    public func hash(into hasher: inout Hasher) { hasher.combine(certificate) }
    public var description: String { "<cert(\(certificate.subjectSummary ?? "?"))>" }

    /// The certificate's public key as a `SecKey`: EC on P-256/384/521, or RSA; nil for other key types.
    var publicKey: SecKey? {
        guard let spki = try? certificate.subjectPublicKeyInfo else { return nil }
        return SecKey.fromSubjectPublicKeyInfo(spki)
    }
}

/// `SecCertificateCreateWithData`: a certificate from DER bytes; nil when they are not one X.509
/// certificate (trailing bytes, PEM text or more than 16 KiB are refused too).
@available(macOS 10.6, *)
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    guard let certificate = try? X509Certificate(derRepresentation: data as Data) else { return nil }
    return SecCertificate(certificate)
}

/// `SecCertificateCopyData`: the DER bytes.
@available(macOS 10.6, *)
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    NSData(data: certificate.certificate.derRepresentation)
}

/// `SecCertificateCopyKey`: the certified public key (EC or RSA); nil for other key types.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    certificate.publicKey
}

/// `SecCertificateCopySubjectSummary`: the subject's common name (else organization, else unit).
@available(macOS 10.6, *)
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    certificate.certificate.subjectSummary.map { $0 as NSString }
}

/// `SecCertificateCopyCommonName`: the subject's last common name; errSecSuccess with nil when it has none.
@available(macOS 10.5, iOS 10.3, tvOS 10.3, watchOS 3.3, *)
public func SecCertificateCopyCommonName(_ certificate: SecCertificate,
                                         _ commonName: UnsafeMutablePointer<CFString?>) -> OSStatus {
    commonName.pointee = certificate.certificate.subjectAttribute("CN").last.map { $0 as NSString }
    return errSecSuccess
}
#endif
