import Foundation

/// What a device reports about its sensor, passcode and shared counters at one moment.
public struct DeviceStatus: Sendable, Equatable {
    /// The sensor hardware; `.none` means there is no biometric sensor.
    public var biometryType: BiometryType
    /// Whether at least one face or finger is enrolled.
    public var biometryEnrolled: Bool
    /// Whether a device passcode is set (biometry requires one, as on iOS).
    public var passcodeSet: Bool
    /// Consecutive failed biometric matches (shared by every context of the device).
    public var failedBiometricAttempts: Int
    /// When the device was last unlocked with biometry (for the reuse window), if known.
    public var lastBiometricUnlock: Date?
    /// Opaque value that changes whenever enrolment changes; `nil` without enrolled biometry.
    public var domainState: Data?

    /// Creates a status.
    public init(biometryType: BiometryType, biometryEnrolled: Bool, passcodeSet: Bool,
                failedBiometricAttempts: Int, lastBiometricUnlock: Date?, domainState: Data?) {
        self.biometryType = biometryType
        self.biometryEnrolled = biometryEnrolled
        self.passcodeSet = passcodeSet
        self.failedBiometricAttempts = failedBiometricAttempts
        self.lastBiometricUnlock = lastBiometricUnlock
        self.domainState = domainState
    }

    /// Biometry is locked after `LocalAuthenticationRules.maximumFailedBiometricAttempts` failures in a row.
    public var isBiometryLockedOut: Bool {
        failedBiometricAttempts >= LocalAuthenticationRules.maximumFailedBiometricAttempts
    }

    /// A sensor exists, a passcode is set, something is enrolled and biometry is not locked out.
    public var isBiometryUsable: Bool {
        biometryType != .none && passcodeSet && biometryEnrolled && !isBiometryLockedOut
    }
}

/// What happened at the biometric sensor during one prompt.
public enum BiometricScanOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// An enrolled face or finger matched.
    case match
    /// A face or finger was presented and did not match.
    case noMatch
    /// The user pressed Cancel.
    case cancel
    /// After a non-match the user pressed the fallback button ("Enter Password").
    case fallback
    /// The system dismissed the prompt (another app came forward, the prompt timed out...).
    case systemCancel
}

/// The device under an authentication context: its sensor, its passcode check and its shared counters.
///
/// `DeviceOwnerContext` applies Apple's rules (lockout, fallback, reuse window, invalidation) on top of
/// a device; `SimulatedDevice` and `PAMDevice` are the implementations in this module.
public protocol AuthenticationDevice: Sendable {
    /// The current status; throws `.biometryNotAvailable` when the device cannot be read.
    func status() throws(AuthenticationError) -> DeviceStatus
    /// Shows the biometric prompt and reports what the sensor saw.
    func scanBiometry(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) -> BiometricScanOutcome
    /// Asks for and checks the passcode. Throws `.userCancel`, `.authenticationFailed`,
    /// `.notInteractive` (nobody to ask) or `.passcodeNotSet`; returns on success.
    func verifyPasscode(_ prompt: AuthenticationPrompt, provider: (any PasscodeProvider)?) async throws(AuthenticationError)
    /// Counts one failed biometric match and returns the new count of failures in a row.
    func recordBiometricFailure() throws(AuthenticationError) -> Int
    /// Records a success: resets the failure counter (a passcode success lifts a lockout).
    func recordSuccess(_ method: AuthenticationMethod) throws(AuthenticationError)
    /// The protection domain's secret (the Secure Enclave analog). Only `DeviceOwnerContext` calls this,
    /// and only after an evaluation covering the domain succeeded.
    func secret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data
}
