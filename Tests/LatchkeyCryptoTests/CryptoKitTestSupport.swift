import Foundation
import LatchkeyCrypto
import Testing

// Test-only conveniences over CryptoKit's API (which has no `==` on public keys and signatures, and an optional
// `combined` on AES-GCM boxes): comparisons by encoding.

/// A CryptoKit value compared by its raw encoding. Not `Equatable` conformances: against Apple's CryptoKit those would
/// be retroactive conformances of its types to a standard protocol (a warning, and wrong if Apple adds them).
protocol RawEncoded {
    var rawRepresentation: Data { get }
}

extension P256.Signing.PublicKey: RawEncoded {}
extension P384.Signing.PublicKey: RawEncoded {}
extension Curve25519.Signing.PublicKey: RawEncoded {}
extension P256.Signing.ECDSASignature: RawEncoded {}

/// Whether two keys (or signatures) of one type have the same encoding.
func sameEncoding<Value: RawEncoded>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs.rawRepresentation == rhs.rawRepresentation
}

extension AES.GCM.SealedBox {
    /// `combined` for the boxes these tests make (always a 12-byte nonce).
    var bytes: Data { combined ?? Data() }
}

extension ChaChaPoly.SealedBox {
    /// `combined` (named as the AES-GCM helper above, for tests written for both).
    var bytes: Data { combined }
}

/// A `CryptoKitError` as a value tests can compare. Apple's CryptoKit makes `CryptoKitError` Equatable only from
/// iOS 17.4 / macOS 14.4, above the package's floor, so `expectCryptoKitError(.x)` is not portable;
/// `expectCryptoKitError(.x) { … }` matches the case instead.
enum CryptoKitErrorCase: Equatable {
    case incorrectKeySize, incorrectParameterSize, authenticationFailure, wrapFailure, unwrapFailure, invalidParameter
    case underlyingCoreCryptoError(Int32)
    case other(String)

    init(_ error: any Error) {
        guard let error = error as? CryptoKitError else {
            self = .other(String(describing: error))
            return
        }
        switch error {
        case .incorrectKeySize: self = .incorrectKeySize
        case .incorrectParameterSize: self = .incorrectParameterSize
        case .authenticationFailure: self = .authenticationFailure
        case .underlyingCoreCryptoError(let code): self = .underlyingCoreCryptoError(code)
        case .wrapFailure: self = .wrapFailure
        case .unwrapFailure: self = .unwrapFailure
        case .invalidParameter: self = .invalidParameter
        @unknown default: self = .other(String(describing: error))
        }
    }
}

/// Expects `body` to throw the `CryptoKitError` case `expected` (see `CryptoKitErrorCase`).
func expectCryptoKitError<R>(_ expected: CryptoKitError, sourceLocation: SourceLocation = #_sourceLocation,
                             performing body: () throws -> R) {
    do {
        _ = try body()
        Issue.record("Expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        #expect(CryptoKitErrorCase(error) == CryptoKitErrorCase(expected), sourceLocation: sourceLocation)
    }
}
