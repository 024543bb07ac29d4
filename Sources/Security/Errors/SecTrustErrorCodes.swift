#if os(Linux)
import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

// Certificate and trust result codes (SecBase.h values) and how trust failures become CFErrors.

/// `errSecHostNameMismatch` (-67602).
public let errSecHostNameMismatch: OSStatus = -67602
/// `errSecUnknownCriticalExtensionFlag` (-67603).
public let errSecUnknownCriticalExtensionFlag: OSStatus = -67603
/// `errSecNoBasicConstraintsCA` (-67605).
public let errSecNoBasicConstraintsCA: OSStatus = -67605
/// `errSecInvalidExtendedKeyUsage` (-67609).
public let errSecInvalidExtendedKeyUsage: OSStatus = -67609
/// `errSecPathLengthConstraintExceeded` (-67611).
public let errSecPathLengthConstraintExceeded: OSStatus = -67611
/// `errSecInvalidCertificateRef` (-67690).
public let errSecInvalidCertificateRef: OSStatus = -67690
/// `errSecCertificateNotValidYet` (-67819).
public let errSecCertificateNotValidYet: OSStatus = -67819
/// `errSecCertificateRevoked` (-67820).
public let errSecCertificateRevoked: OSStatus = -67820

/// English messages for the codes above (`SecCopyErrorMessageString`).
let trustErrorMessages: [OSStatus: String] = [
    -67602: "A host name mismatch has occurred.",
    -67603: "There is an unknown critical extension flag.",
    -67605: "No basic CA constraints were found.",
    -67609: "The extended key usage is not valid.",
    -67611: "The path length constraint was exceeded.",
    -67690: "An invalid certificate reference was encountered.",
    -67819: "The certificate is not yet valid.",
    -67820: "The certificate was revoked.",
]

extension TrustEvaluationError {
    /// Apple's result code for this failure.
    var status: OSStatus {
        switch self {
        case .expired: errSecCertificateExpired
        case .notYetValid: errSecCertificateNotValidYet
        case .hostnameMismatch: errSecHostNameMismatch
        case .notTrusted, .rejected: errSecNotTrusted
        case .invalidSignature: errSecInvalidSignature
        case .invalidAuthority: errSecNoBasicConstraintsCA
        case .pathLengthExceeded: errSecPathLengthConstraintExceeded
        case .invalidPurpose: errSecInvalidExtendedKeyUsage
        case .unhandledCriticalExtension: errSecUnknownCriticalExtensionFlag
        case .noCertificates: errSecParam
        }
    }

    /// The CFError `SecTrustEvaluateWithError` reports: NSOSStatusErrorDomain, Apple's code, and a
    /// description naming the certificate (English or Korean, `MessageLanguage.current`).
    var cfError: CFError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status),
                userInfo: [NSLocalizedDescriptionKey: localizedDescription])
    }
}
#endif
