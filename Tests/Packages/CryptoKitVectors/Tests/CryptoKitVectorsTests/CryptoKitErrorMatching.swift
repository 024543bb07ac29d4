import CryptoKit
import Testing

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
