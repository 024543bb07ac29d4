import Foundation
import LatchkeyAuthCore

/// What `PAMAuthenticator` keeps in the user's 0600 state file (`pam-secrets`): the lockout counter,
/// the enrolment generation behind `domainState`, and the protection-domain secrets.
///
/// Weaker than a Secure Enclave: the secrets are released by Latchkey only after PAM succeeds, but any
/// process running as this user (or root) can read the file directly. Use full-disk encryption, and
/// prefer a TPM-backed store where one exists.
struct PAMDeviceState: Codable, Sendable, Equatable {
    var deviceIdentifier: Data
    var enrollmentGeneration: UInt64
    var failedAttempts: Int
    var lastBiometricUnlock: Date?
    var secrets: [String: Data]

    init() {
        deviceIdentifier = AuthRandom.bytes()
        enrollmentGeneration = 1
        failedAttempts = 0
        lastBiometricUnlock = nil
        secrets = [:]
        for domain in ProtectionDomain.allCases { secrets[domain.rawValue] = AuthRandom.bytes() }
    }

    var domainState: Data {
        var input = Data("latchkey.pam.domain-state".utf8)
        input.append(deviceIdentifier)
        withUnsafeBytes(of: enrollmentGeneration.bigEndian) { input.append(contentsOf: $0) }
        return AuthRandom.digest(input)
    }

    /// An enrolment change observed by the library: new generation, new current-set secret.
    mutating func enrollmentChanged() {
        enrollmentGeneration &+= 1
        secrets[ProtectionDomain.biometryCurrentSet.rawValue] = AuthRandom.bytes()
    }
}
