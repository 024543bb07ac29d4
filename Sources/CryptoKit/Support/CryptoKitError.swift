import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// General cryptography errors used by CryptoKit (Apple's cases and meanings).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
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
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    case wrapFailure
    /// The data used in a key unwrap operation is incorrect.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    case unwrapFailure
    /// A parameter is invalid.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    case invalidParameter
}

/// Equatable and Hashable from iOS 17.4 / macOS 14.4 on, as Apple's: above the package's floor, so portable code
/// matches the case (`if case .authenticationFailure = error`) instead of comparing.
@available(macOS 14.4, iOS 17.4, tvOS 17.4, watchOS 10.4, *)
extension CryptoKitError: Equatable, Hashable {}

/// Errors from decoding ASN.1 (DER and PEM key representations).
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
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
