import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// General cryptography errors used by CryptoKit (Apple's cases and meanings).
public enum CryptoKitError: Error {
    /// The key size is incorrect.
    case incorrectKeySize
    /// The parameter size is incorrect.
    case incorrectParameterSize
    /// The authentication tag or signature is incorrect.
    case authenticationFailure
    /// The underlying library reported an error (Linux: OpenSSL or libsodium; the code is not meaningful).
    case underlyingCoreCryptoError(error: Int32)
    /// The data used in a key wrap operation is incorrect.
    case wrapFailure
    /// The data used in a key unwrap operation is incorrect.
    case unwrapFailure
    /// A parameter is invalid.
    case invalidParameter
}

extension CryptoKitError: Equatable, Hashable {}

/// Errors from decoding ASN.1 (DER and PEM key representations).
public enum CryptoKitASN1Error: Equatable, Error, Hashable {
    case invalidFieldIdentifier
    case unexpectedFieldType
    case invalidObjectIdentifier
    case invalidASN1Object
    case invalidASN1IntegerEncoding
    case truncatedASN1Field
    case unsupportedFieldLength
    case invalidPEMDocument
}

/// Any error CryptoKit's functions throw (`CryptoKitError`, `CryptoKitASN1Error`, `HPKE.Errors`).
public typealias CryptoKitMetaError = any Error

extension CryptoError {
    /// The CryptoKit error an engine failure is reported as (Apple's cases: sizes, authentication, the library).
    var cryptoKitError: any Error {
        switch self {
        case .authenticationFailure: CryptoKitError.authenticationFailure
        case .invalidKeySize: CryptoKitError.incorrectKeySize
        case .invalidNonceSize, .inputTooLarge: CryptoKitError.incorrectParameterSize
        case .invalidParameter: CryptoKitError.incorrectParameterSize
        case .malformedInput: CryptoKitASN1Error.invalidASN1Object
        case .unsupportedAlgorithm: CryptoKitASN1Error.invalidObjectIdentifier
        case .libraryFailure, .untrustedCertificate: CryptoKitError.underlyingCoreCryptoError(error: -1)
        }
    }
}

/// Runs an engine call, rethrowing its failure as CryptoKit reports it.
@inline(__always)
func engine<R>(_ body: () throws(CryptoError) -> R) throws -> R {
    do { return try body() } catch { throw error.cryptoKitError }
}
