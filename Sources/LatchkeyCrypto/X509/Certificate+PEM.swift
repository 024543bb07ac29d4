import COpenSSL
import Foundation

/// Why PEM text did not give certificates.
public enum CertificatePEMError: Error, Sendable, Equatable {
    /// The text holds no `CERTIFICATE` block (other blocks, such as keys, are skipped).
    case noCertificate
    /// The text is larger than `Certificate.maxPEMSize`.
    case inputTooLarge(limit: Int)
    /// The `index`th certificate block (from 1) is not a readable certificate (bad base64, bad DER, encrypted...).
    case malformedCertificate(index: Int, reason: String)
    /// More than `Certificate.maxPEMCount` certificates.
    case tooManyCertificates(limit: Int)
}

extension CertificatePEMError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .noCertificate:
            return lang.pick(english: "No PEM CERTIFICATE block found.", korean: "PEM CERTIFICATE 블록이 없습니다.")
        case .inputTooLarge(let limit):
            return lang.pick(english: "The PEM text is too large (limit \(limit) bytes).",
                             korean: "PEM 텍스트가 너무 큽니다 (최대 \(limit)바이트).")
        case let .malformedCertificate(index, reason):
            return lang.pick(english: "PEM certificate \(index) does not parse: \(reason).",
                             korean: "PEM 인증서 \(index)을(를) 해석할 수 없습니다: \(reason).")
        case .tooManyCertificates(let limit):
            return lang.pick(english: "More than \(limit) certificates in one PEM text.",
                             korean: "PEM 텍스트 하나에 인증서가 \(limit)개를 넘습니다.")
        }
    }
}

extension Certificate {
    /// Largest PEM text accepted by `init(pem:)` and `all(pem:)`.
    public static let maxPEMSize = 1 << 20
    /// Most certificates `all(pem:)` reads from one text.
    public static let maxPEMCount = 256

    /// The first `CERTIFICATE` block of PEM text (RFC 7468), read by OpenSSL's `PEM_read_bio_X509`.
    public convenience init(pem text: String) throws(CertificatePEMError) {
        let first = try Self.read(pem: text, limit: 1)[0]
        do { try self.init(derRepresentation: first) } catch {
            throw .malformedCertificate(index: 1, reason: error.localizedDescription)
        }
    }

    /// Every `CERTIFICATE` block of PEM text, in order (a bundle or a chain file). Blocks with other labels are
    /// skipped; text without any certificate is `.noCertificate`.
    public static func all(pem text: String) throws(CertificatePEMError) -> [Certificate] {
        var certificates: [Certificate] = []
        for (index, der) in try read(pem: text, limit: maxPEMCount + 1).enumerated() {
            guard index < maxPEMCount else { throw .tooManyCertificates(limit: maxPEMCount) }
            do { certificates.append(try Certificate(derRepresentation: der)) } catch {
                throw .malformedCertificate(index: index + 1, reason: error.localizedDescription)
            }
        }
        return certificates
    }

    /// The certificate as one PEM `CERTIFICATE` block (base64 in 64-character lines).
    public var pemRepresentation: String { PEM.encode(label: "CERTIFICATE", der: derRepresentation) }

    /// The DER of up to `limit` certificate blocks, at least one.
    private static func read(pem text: String, limit: Int) throws(CertificatePEMError) -> [Data] {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxPEMSize else { throw .inputTooLarge(limit: maxPEMSize) }
        guard !bytes.isEmpty else { throw .noCertificate }
        // BIO_new_mem_buf reads the caller's memory in place: keep one copy alive for the whole loop.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
            throw .malformedCertificate(index: 1, reason: "BIO_new_mem_buf failed")
        }
        defer { BIO_free(bio) }
        var ders: [Data] = []
        ERR_clear_error()
        while ders.count < limit {
            // The password callback refuses: an encrypted block is an error, never a prompt on the terminal.
            guard let x509 = PEM_read_bio_X509(bio, nil, { _, _, _, _ in 0 }, nil) else {
                let code = ERR_peek_last_error()
                ERR_clear_error()
                // "No start line" is the end of the text: no further CERTIFICATE block.
                if ERR_GET_LIB(code) == ERR_LIB_PEM, ERR_GET_REASON(code) == PEM_R_NO_START_LINE { break }
                throw .malformedCertificate(index: ders.count + 1, reason: Self.reason(code))
            }
            defer { X509_free(x509) }
            var out: UnsafeMutablePointer<UInt8>?
            let length = i2d_X509(x509, &out)
            guard length > 0, let out else { throw .malformedCertificate(index: ders.count + 1, reason: "i2d_X509 failed") }
            ders.append(Data(bytes: out, count: Int(length)))
            CRYPTO_free(out, #fileID, #line)
        }
        guard !ders.isEmpty else { throw .noCertificate }
        return ders
    }

    private static func reason(_ code: UInt) -> String {
        guard let text = ERR_reason_error_string(code) else { return "OpenSSL error \(code)" }
        return String(cString: text)
    }
}
