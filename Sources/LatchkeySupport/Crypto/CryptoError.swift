import Foundation

/// Every failure LatchkeyCrypto reports. Messages never contain key material or plaintext.
public enum CryptoError: Error, Sendable, Equatable {
    /// An AEAD tag, a MAC or a signature did not verify: the input was tampered with or the key is wrong.
    case authenticationFailure
    /// A key has the wrong length for the algorithm.
    case invalidKeySize(expected: Int, actual: Int)
    /// A nonce / IV has the wrong length.
    case invalidNonceSize(expected: Int, actual: Int)
    /// A parameter is out of range (iteration count, output length, Argon2 cost...).
    case invalidParameter(String)
    /// Input could not be parsed (DER, PEM, JWK, PHC string, base64url, JSON, CBOR...).
    case malformedInput(String)
    /// Input is larger than the limit this operation accepts.
    case inputTooLarge(limit: Int)
    /// The algorithm or key type is not supported (or not allowed here).
    case unsupportedAlgorithm(String)
    /// The underlying C library reported an error (name of the failing call).
    case libraryFailure(String)
    /// A certificate chain did not verify to a trust anchor (OpenSSL's reason).
    case untrustedCertificate(String)
}

extension CryptoError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .authenticationFailure:
            return lang.pick(english: "Authentication failed: the data was modified or the key is wrong.",
                             korean: "인증 실패: 데이터가 변조되었거나 키가 잘못되었습니다.")
        case let .invalidKeySize(expected, actual):
            return lang.pick(english: "Invalid key size: expected \(expected) bytes, got \(actual).",
                             korean: "키 길이가 잘못되었습니다: \(expected)바이트가 필요하지만 \(actual)바이트입니다.")
        case let .invalidNonceSize(expected, actual):
            return lang.pick(english: "Invalid nonce size: expected \(expected) bytes, got \(actual).",
                             korean: "논스 길이가 잘못되었습니다: \(expected)바이트가 필요하지만 \(actual)바이트입니다.")
        case let .invalidParameter(what):
            return lang.pick(english: "Invalid parameter: \(what).", korean: "잘못된 매개변수: \(what).")
        case let .malformedInput(what):
            return lang.pick(english: "Malformed input: \(what).", korean: "입력 형식이 잘못되었습니다: \(what).")
        case let .inputTooLarge(limit):
            return lang.pick(english: "Input too large (limit \(limit) bytes).",
                             korean: "입력이 너무 큽니다 (최대 \(limit)바이트).")
        case let .unsupportedAlgorithm(name):
            return lang.pick(english: "Unsupported or disallowed algorithm: \(name).",
                             korean: "지원되지 않거나 허용되지 않는 알고리즘: \(name).")
        case let .untrustedCertificate(reason):
            return lang.pick(english: "Certificate not trusted: \(reason).",
                             korean: "신뢰할 수 없는 인증서: \(reason).")
        case let .libraryFailure(call):
            return lang.pick(english: "The cryptographic library failed (\(call)).",
                             korean: "암호 라이브러리 오류 (\(call)).")
        }
    }
}
