import Foundation

/// The secret an authentication context releases after a successful evaluation.
///
/// Keychain items protected by an access control are sealed under keys derived from these secrets,
/// so an item opens only after the matching evaluation — a cryptographic gate, not an `if`.
/// - `biometryCurrentSet`: changes whenever enrolment changes (old items become unreadable).
/// - `biometryAny`: stable across enrolment changes while biometry stays set up.
/// - `devicePasscode`: released after a passcode (on Linux: PAM password) success.
/// - `userPresence`: released after either a biometric or a passcode success.
public enum ProtectionDomain: String, Sendable, Hashable, CaseIterable, Codable {
    case biometryAny
    case biometryCurrentSet
    case devicePasscode
    case userPresence
}
