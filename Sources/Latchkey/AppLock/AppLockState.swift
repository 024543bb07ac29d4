/// Where an app's lock screen stands.
public enum AppLockState: Sendable, Hashable {
    /// Content hidden; the app shows its lock screen (an "Unlock" button).
    case locked
    /// A biometric or passcode prompt is up.
    case authenticating
    /// Content visible.
    case unlocked
    /// The last attempt failed; the message is for the user (already localized).
    case failed(String)
    /// No usable session: the user must log in again (no valid tokens, or biometric enrolment changed).
    case needsLogin
}
