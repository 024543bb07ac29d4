#if LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import Security

/// How Security checks a certificate signature of a given algorithm identifier (RFC 5758, RFC 8017, RFC 8410):
/// a `SecKeyAlgorithm` for ECDSA and RSA (PKCS #1 v1.5; PSS whose salt is the digest's length, as Security's PSS
/// algorithms fix it), or Ed25519 through CryptoKit. Nil for anything else (the signature is then not valid).
enum X509SignatureAlgorithm {
    case secKey(SecKeyAlgorithm)
    case ed25519

    static let ed25519OID = "1.3.101.112"

    init?(_ identifier: CertificateFields.AlgorithmIdentifier) {
        switch identifier.oid {
        case "1.2.840.10045.4.1": self = .secKey(.ecdsaSignatureMessageX962SHA1)
        case "1.2.840.10045.4.3.2": self = .secKey(.ecdsaSignatureMessageX962SHA256)
        case "1.2.840.10045.4.3.3": self = .secKey(.ecdsaSignatureMessageX962SHA384)
        case "1.2.840.10045.4.3.4": self = .secKey(.ecdsaSignatureMessageX962SHA512)
        case "1.2.840.113549.1.1.5": self = .secKey(.rsaSignatureMessagePKCS1v15SHA1)
        case "1.2.840.113549.1.1.11": self = .secKey(.rsaSignatureMessagePKCS1v15SHA256)
        case "1.2.840.113549.1.1.12": self = .secKey(.rsaSignatureMessagePKCS1v15SHA384)
        case "1.2.840.113549.1.1.13": self = .secKey(.rsaSignatureMessagePKCS1v15SHA512)
        case "1.2.840.113549.1.1.10":
            guard let parameters = identifier.parameters, let algorithm = Self.pss(parameters) else { return nil }
            self = .secKey(algorithm)
        case Self.ed25519OID where identifier.parameters == nil: self = .ed25519
        default: return nil
        }
    }

    /// RSASSA-PSS-params (RFC 8017 A.2.3) that Security's PSS algorithms express: SHA-256/384/512, MGF1 with the
    /// same hash, salt length equal to the digest length, trailer field 1.
    private static func pss(_ parameters: Data) -> SecKeyAlgorithm? {
        guard let element = try? DERReader.parse(parameters), let fields = element.sequenceItems else { return nil }
        let digests: [String: (SecKeyAlgorithm, Int64)] = [
            "2.16.840.1.101.3.4.2.1": (.rsaSignatureMessagePSSSHA256, 32),
            "2.16.840.1.101.3.4.2.2": (.rsaSignatureMessagePSSSHA384, 48),
            "2.16.840.1.101.3.4.2.3": (.rsaSignatureMessagePSSSHA512, 64),
        ]
        var hash: String?, maskHash: String?, salt: Int64 = 20, trailer: Int64 = 1
        for field in fields where field.tagClass == .contextSpecific && field.children.count == 1 {
            let value = field.children[0]
            switch field.tagNumber {
            case 0: hash = value.sequenceItems?.first?.objectIdentifierValue
            case 1:
                guard let mgf = value.sequenceItems, mgf.count == 2, mgf[0].objectIdentifierValue == "1.2.840.113549.1.1.8"
                else { return nil }
                maskHash = mgf[1].sequenceItems?.first?.objectIdentifierValue
            case 2: salt = value.smallIntegerValue ?? -1
            case 3: trailer = value.smallIntegerValue ?? -1
            default: return nil
            }
        }
        guard let hash, maskHash == hash, trailer == 1, let (algorithm, length) = digests[hash], salt == length else {
            return nil
        }
        return algorithm
    }
}
#endif
