// A biometric manager as tutorials write it, against Apple's names only.
import Foundation
import LocalAuthentication

enum BiometricError: Error, Equatable {
    case notAvailable
    case notEnrolled
    case lockedOut
    case userCancelled
    case fallback
    case failed
    case unknown(Int)
}

final class BiometricManager {
    enum BiometricType { case none, touchID, faceID, opticID }

    func biometricType() -> BiometricType {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return .none }
        switch context.biometryType {
        case .none: return .none
        case .touchID: return .touchID
        case .faceID: return .faceID
        case .opticID: return .opticID
        @unknown default: return .none
        }
    }

    func canAuthenticate() -> Result<Bool, BiometricError> {
        let context = LAContext()
        var error: NSError?
        if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
            return .success(true)
        }
        guard let error else { return .failure(.unknown(0)) }
        return .failure(map(error))
    }

    func map(_ error: Error) -> BiometricError {
        guard let laError = error as? LAError ?? LAError(_nsError: error as NSError) else {
            return .unknown((error as NSError).code)
        }
        switch laError.code {
        case .biometryNotAvailable: return .notAvailable
        case .biometryNotEnrolled: return .notEnrolled
        case .biometryLockout: return .lockedOut
        case .userCancel, .systemCancel, .appCancel: return .userCancelled
        case .userFallback: return .fallback
        case .authenticationFailed: return .failed
        default: return .unknown(laError.code.rawValue)
        }
    }

    func authenticate(reason: String, completion: @escaping (Result<Bool, BiometricError>) -> Void) {
        let context = LAContext()
        context.localizedCancelTitle = "Cancel"
        context.localizedFallbackTitle = "Use Passcode"
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) { success, error in
            if success {
                completion(.success(true))
            } else if let error {
                completion(.failure(self.map(error)))
            } else {
                completion(.failure(.unknown(0)))
            }
        }
    }

    func authenticate(reason: String) async -> Result<Bool, BiometricError> {
        let context = LAContext()
        do {
            let ok = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
            return ok ? .success(true) : .failure(.failed)
        } catch let error as LAError {
            return .failure(map(error))
        } catch {
            return .failure(.unknown(0))
        }
    }

    /// The `case LAError.x:` pattern style over `Error`.
    func describe(_ error: Error) -> String {
        switch error {
        case LAError.userCancel: return "cancelled"
        case LAError.biometryLockout: return "locked out"
        case LAError.biometryNotEnrolled: return "not enrolled"
        default: return "other"
        }
    }
}
