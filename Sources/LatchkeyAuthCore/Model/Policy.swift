/// What must be proven before an evaluation succeeds, as `LAPolicy`.
public enum Policy: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Biometrics only (Face ID, Touch ID, Optic ID, a fingerprint reader).
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometrics, falling back to the device passcode (on Linux: the user's password through PAM).
    case deviceOwnerAuthentication = 2
}
