import Foundation
import LatchkeyAuthCore
import LatchkeyTPM
import LocalAuthentication

/// How the Linux `SecureEnclave` reports failures, with Apple's error types: `CryptoKitError` for the key and the
/// hardware (OSStatus codes where Apple's Security would give one), `LAError` for the authentication a key's access
/// control asked for (a cancelled or failed prompt, a context that may not prompt).
enum SecureEnclaveFailure {
    /// `errSecUnimplemented`: what creating a key reports where there is no Secure Enclave (a simulator).
    static let unimplemented: Int32 = -4
    /// `errSecParam`: bytes that are not a key's `dataRepresentation`, or a peer key on no curve.
    static let parameter: Int32 = -50
    /// `errSecAuthFailed`: the key's authorization could not be obtained — its access control cannot be satisfied on
    /// this machine, or the secrets it was bound to changed (a `.biometryCurrentSet` key after re-enrolment).
    static let authenticationFailed: Int32 = -25293
    /// `errSecItemNotFound`: a key this TPM did not make, or made under an owner hierarchy since cleared.
    static let keyNotFound: Int32 = -25300

    /// The error a TPM failure is reported as.
    static func error(_ failure: TPMError) -> any Error {
        switch failure {
        case .unavailable: CryptoKitError.underlyingCoreCryptoError(error: unimplemented)
        case .authorizationFailed: CryptoKitError.underlyingCoreCryptoError(error: authenticationFailed)
        case .foreignKey: CryptoKitError.underlyingCoreCryptoError(error: keyNotFound)
        case .malformedKey, .invalidParameter: CryptoKitError.underlyingCoreCryptoError(error: parameter)
        case let .failed(_, code, _): CryptoKitError.underlyingCoreCryptoError(error: Int32(bitPattern: code))
        }
    }

    /// The error an authentication failure is reported as.
    static func error(_ failure: AuthenticationError) -> any Error { LAError(failure) }

    /// Runs a TPM operation, rethrowing its failure as `error(_:)` reports it.
    static func tpm<R>(_ body: () throws(TPMError) -> R) throws -> R {
        do { return try body() } catch { throw Self.error(error) }
    }
}
