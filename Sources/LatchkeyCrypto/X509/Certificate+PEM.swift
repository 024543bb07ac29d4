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

    /// The labels read as certificates: RFC 7468's, and the older one OpenSSL still reads.
    static let pemLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]

    /// The first `CERTIFICATE` block of PEM text (RFC 7468, read by `PEMArmor`).
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
    public var pemRepresentation: String { PEMArmor.encode(label: "CERTIFICATE", der: derRepresentation) }

    /// The DER of up to `limit` certificate blocks, at least one.
    private static func read(pem text: String, limit: Int) throws(CertificatePEMError) -> [Data] {
        guard text.utf8.count <= maxPEMSize else { throw .inputTooLarge(limit: maxPEMSize) }
        var ders: [Data] = []
        for (index, block) in PEMArmor.blocks(in: text, labels: pemLabels, limit: limit).enumerated() {
            guard let der = block.der else {
                throw .malformedCertificate(index: index + 1, reason: block.problem ?? "malformed PEM block")
            }
            ders.append(der)
        }
        guard !ders.isEmpty else { throw .noCertificate }
        return ders
    }
}
