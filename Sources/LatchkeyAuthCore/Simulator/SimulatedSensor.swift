import Foundation
import LatchkeySupport

/// The simulated device, as persisted in the control file: the iOS Simulator's Features ▸ Face ID menu
/// plus the Secure Enclave analog (the protection-domain secrets).
///
/// This is a test and demo device: its secrets sit in a 0600 file, not in hardware.
public struct SimulatedSensor: Codable, Sendable, Equatable {
    /// Which sensor the device has (`.none`: no biometric hardware).
    public var biometryType: BiometryType
    /// Whether a face / finger is enrolled ("Enrolled" in the Simulator menu).
    public private(set) var enrolled: Bool
    /// Outcomes the next prompts will see, first one first.
    public var pendingOutcomes: [BiometricScanOutcome]
    /// The outcome used when `pendingOutcomes` is empty; `nil` means the prompt times out (`systemCancel`).
    public var defaultOutcome: BiometricScanOutcome?
    /// Consecutive failed biometric matches (5 → lockout).
    public var failedAttempts: Int
    /// Bumped on every enrolment change; feeds `domainState`.
    public private(set) var enrollmentGeneration: UInt64
    /// When the device was last unlocked with biometry (for `reuseDuration`).
    public var lastBiometricUnlock: Date?

    package var deviceIdentifier: Data
    package var passcodeSalt: Data?
    package var passcodeVerifier: Data?
    package var secrets: [String: Data]

    /// A new device: Face ID hardware, nothing enrolled, no passcode, fresh secrets.
    public init(biometryType: BiometryType = .faceID) {
        self.biometryType = biometryType
        enrolled = false
        pendingOutcomes = []
        defaultOutcome = nil
        failedAttempts = 0
        enrollmentGeneration = 0
        lastBiometricUnlock = nil
        deviceIdentifier = AuthRandom.bytes()
        passcodeSalt = nil
        passcodeVerifier = nil
        secrets = [:]
        for domain in ProtectionDomain.allCases { rotate(domain) }
    }

    /// Whether a passcode is set.
    public var passcodeSet: Bool { passcodeVerifier != nil }

    /// Whether biometry is locked out after too many failures.
    public var isLockedOut: Bool { failedAttempts >= LocalAuthenticationRules.maximumFailedBiometricAttempts }

    /// Digest of the device identity and enrolment generation; `nil` without enrolled biometry.
    public var domainState: Data? {
        guard enrolled, biometryType != .none else { return nil }
        var input = Data("latchkey.simulator.domain-state".utf8)
        input.append(deviceIdentifier)
        withUnsafeBytes(of: enrollmentGeneration.bigEndian) { input.append(contentsOf: $0) }
        return AuthRandom.digest(input)
    }

    // MARK: - Menu actions

    /// Enrols a face or finger. Already enrolled: "enrol a new finger" — a new current set
    /// (`biometryCurrentSet` secret re-randomised, `domainState` changes; `biometryAny` kept).
    package mutating func enroll() {
        if !enrolled { rotate(.biometryAny) }
        enrolled = true
        enrollmentGeneration &+= 1
        rotate(.biometryCurrentSet)
    }

    /// Removes every enrolment: biometry is no longer set up, both biometric secrets are re-randomised.
    package mutating func unenroll() {
        guard enrolled else { return }
        enrolled = false
        enrollmentGeneration &+= 1
        rotate(.biometryAny)
        rotate(.biometryCurrentSet)
        lastBiometricUnlock = nil
    }

    /// Sets, changes or (with `nil`) removes the passcode. Removing it also removes biometry and
    /// re-randomises every secret (iOS deletes passcode-protected items); changing it keeps them.
    package mutating func setPasscode(_ passcode: Passcode?) {
        guard let passcode else {
            guard passcodeSet else { return }
            unenroll()
            passcodeSalt = nil
            passcodeVerifier = nil
            for domain in ProtectionDomain.allCases { rotate(domain) }
            failedAttempts = 0
            return
        }
        let salt = AuthRandom.bytes()
        passcodeSalt = salt
        passcodeVerifier = Self.verifier(passcode, salt: salt)
    }

    /// Whether `passcode` is the one set (constant-time comparison).
    package func accepts(_ passcode: Passcode) -> Bool {
        guard let salt = passcodeSalt, let verifier = passcodeVerifier else { return false }
        return passcode.withBytes { bytes in
            AuthRandom.isValidAuthenticationCode(verifier, for: UnsafeRawBufferPointer(bytes), key: salt)
        }
    }

    /// The next scripted outcome (the queue first, then the default, else a timeout).
    package mutating func takeOutcome() -> BiometricScanOutcome {
        if !pendingOutcomes.isEmpty { return pendingOutcomes.removeFirst() }
        return defaultOutcome ?? .systemCancel
    }

    package func secret(for domain: ProtectionDomain) -> Data? { secrets[domain.rawValue] }

    private mutating func rotate(_ domain: ProtectionDomain) { secrets[domain.rawValue] = AuthRandom.bytes() }

    private static func verifier(_ passcode: Passcode, salt: Data) -> Data { code(passcode, salt: salt) }

    private static func code(_ passcode: Passcode, salt: Data) -> Data {
        passcode.withBytes { bytes in AuthRandom.authenticationCode(for: UnsafeRawBufferPointer(bytes), key: salt) }
    }
}

extension SimulatedSensor: CustomStringConvertible {
    /// A summary without secrets.
    public var description: String {
        "SimulatedSensor(\(biometryType), enrolled: \(enrolled), passcodeSet: \(passcodeSet), "
            + "failedAttempts: \(failedAttempts), generation: \(enrollmentGeneration), pending: \(pendingOutcomes.count))"
    }
}
