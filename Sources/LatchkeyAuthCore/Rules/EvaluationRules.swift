import Foundation

/// Apple's pre-flight checks (`canEvaluatePolicy`), as pure functions of a device status.
package enum EvaluationRules {
    /// Throws the reason `policy` cannot be evaluated on a device in `status`.
    ///
    /// Biometrics: no sensor → `biometryNotAvailable`; no passcode → `passcodeNotSet` (biometry needs a
    /// passcode, as on iOS); nothing enrolled → `biometryNotEnrolled`; 5 failures → `biometryLockout`.
    /// Device owner: only a missing passcode stops it; without usable biometry the passcode is offered.
    package static func check(_ policy: Policy, _ status: DeviceStatus) throws(AuthenticationError) {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics:
            guard status.biometryType != .none else { throw .biometryNotAvailable }
            guard status.passcodeSet else { throw .passcodeNotSet }
            guard status.biometryEnrolled else { throw .biometryNotEnrolled }
            guard !status.isBiometryLockedOut else { throw .biometryLockout }
        case .deviceOwnerAuthentication:
            guard status.passcodeSet else { throw .passcodeNotSet }
        }
    }

    /// Whether a biometric device unlock at `unlock` is still inside the reuse window at `now`.
    package static func reuseAccepted(unlock: Date?, now: Date, reuseDuration: Double) -> Bool {
        let window = LocalAuthenticationRules.clampedReuseDuration(reuseDuration)
        guard window > 0, let unlock else { return false }
        let age = now.timeIntervalSince(unlock)
        return age >= 0 && age <= window
    }
}
