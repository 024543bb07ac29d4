import LatchkeyAuthCore
/// Linux-PAM's return codes (`_pam_types.h`) and how Latchkey maps them to LAError semantics.
///
/// Portable on purpose: the mapping is tested on every platform; only `PAMAuthenticator` needs PAM.
public enum PAMStatus: Int32, Sendable, Hashable, CaseIterable {
    case success = 0, openError, symbolError, serviceError, systemError, bufferError
    case permissionDenied, authenticationError, credentialsInsufficient, authenticationInfoUnavailable
    case userUnknown, maximumTries, newAuthenticationTokenRequired, accountExpired, sessionError
    case credentialsUnavailable, credentialsExpired, credentialsError, noModuleData, conversationError
    case authenticationTokenError, authenticationTokenRecoveryError, authenticationTokenLockBusy
    case authenticationTokenDisableAging, tryAgain, ignore, abort, authenticationTokenExpired
    case moduleUnknown, badItem, conversationAgain, incomplete

    /// How the conversation ended, which PAM's code alone does not say.
    public struct Conversation: Sendable, Equatable {
        /// The prompt callback returned nil (the user pressed Cancel).
        public var canceled: Bool
        /// A prompt was needed but there was no prompt callback.
        public var noResponder: Bool

        /// Creates the flags.
        public init(canceled: Bool = false, noResponder: Bool = false) {
            self.canceled = canceled
            self.noResponder = noResponder
        }
    }

    /// The result of the passcode (password) stack: `nil` on success, otherwise the LAError-style reason.
    ///
    /// - A cancel in the prompt callback is `.userCancel` and a prompt without a callback is
    ///   `.notInteractive`, whatever code the module turned the conversation error into.
    /// - `PAM_AUTH_ERR`, `PAM_USER_UNKNOWN`, `PAM_PERM_DENIED`, `PAM_ACCT_EXPIRED`, expired or
    ///   insufficient credentials → `.authenticationFailed` (an unknown user is not revealed as such).
    /// - `PAM_MAXTRIES` → `.authenticationFailed`: the module gave up after its own retries; the
    ///   5-failure biometric lockout is Latchkey's own counter, never PAM's.
    /// - `PAM_AUTHINFO_UNAVAIL` / `PAM_CRED_UNAVAIL` → `.passcodeNotSet` (nothing to check against).
    /// - Configuration and system failures (`PAM_OPEN_ERR`, `PAM_SERVICE_ERR`, `PAM_SYSTEM_ERR`,
    ///   `PAM_ABORT`, ...) → `.systemCancel`: the system could not run the check.
    public static func passcodeError(_ code: Int32, conversation: Conversation = .init()) -> AuthenticationError? {
        if code == PAMStatus.success.rawValue { return nil }
        if conversation.canceled { return .userCancel }
        if conversation.noResponder { return .notInteractive }
        guard let status = PAMStatus(rawValue: code) else { return .authenticationFailed }
        switch status {
        case .success: return nil
        case .conversationError, .conversationAgain:
            return conversation.noResponder ? .notInteractive : .userCancel
        case .authenticationInfoUnavailable, .credentialsUnavailable:
            return .passcodeNotSet
        case .openError, .symbolError, .serviceError, .systemError, .bufferError, .abort, .moduleUnknown,
             .badItem, .incomplete, .noModuleData, .sessionError, .credentialsError, .tryAgain:
            return .systemCancel
        case .authenticationError, .userUnknown, .maximumTries, .permissionDenied, .accountExpired,
             .credentialsInsufficient, .credentialsExpired, .newAuthenticationTokenRequired,
             .authenticationTokenExpired, .authenticationTokenError, .authenticationTokenRecoveryError,
             .authenticationTokenLockBusy, .authenticationTokenDisableAging, .ignore:
            return .authenticationFailed
        }
    }

    /// The result of a biometric stack (e.g. `pam_fprintd`) as a sensor outcome.
    ///
    /// Success → `.match`; `PAM_AUTH_ERR` / `PAM_MAXTRIES` (non-matching scans) → `.noMatch`, which feeds
    /// Latchkey's 5-failure lockout; a cancel → `.cancel`; `PAM_AUTHINFO_UNAVAIL` (timeout, nothing
    /// enrolled, device error) → throws `.biometryNotAvailable`; everything else is mapped as the passcode is.
    public static func biometricOutcome(_ code: Int32, conversation: Conversation = .init())
        -> Result<BiometricScanOutcome, AuthenticationError> {
        if code == PAMStatus.success.rawValue { return .success(.match) }
        if conversation.canceled { return .success(.cancel) }
        switch PAMStatus(rawValue: code) {
        case .authenticationError?, .maximumTries?: return .success(.noMatch)
        case .authenticationInfoUnavailable?, .credentialsUnavailable?: return .failure(.biometryNotAvailable)
        default: return .failure(passcodeError(code, conversation: conversation) ?? .authenticationFailed)
        }
    }
}
