#if os(Linux)
import Foundation
import LatchkeyAuthCore
#if canImport(Glibc)
import Glibc
#endif

/// Device-owner authentication on Linux through PAM: the device owner is the Linux user and the
/// passcode is whatever the PAM service accepts for that user (a password, or a security key / a
/// fingerprint when the service stacks pam_u2f / pam_fprintd).
///
/// - `.deviceOwnerAuthentication` runs the passcode service (`Configuration.service`, default "latchkey").
/// - `.deviceOwnerAuthenticationWithBiometrics` needs `Configuration.biometricService`, a PAM service
///   whose stack is the biometric part (e.g. `auth required pam_fprintd.so max-tries=1`); without one the
///   device has no biometry (`.biometryNotAvailable`). Non-matches count towards Latchkey's own
///   5-failure lockout, kept in the state file and reset by a passcode success.
/// - `domainState` digests a generation counter the library keeps; call `noteEnrollmentChanged()` when
///   an enrolment change is observed (fprintd's finger list misses a same-finger re-enrolment).
/// - `releaseSecret(for:)`: random secrets kept in the user's 0600 state file
///   (`$XDG_STATE_HOME/latchkey/pam-secrets`), released only after PAM succeeded. This is weaker than
///   a Secure Enclave: a process running as the same user can read that file without PAM.
///
/// The secret reaches PAM only through the `PasscodeProvider` callback — never argv or the environment.
///
/// Fingerprint readers (fprintd): make `biometricService` a service whose stack is
/// `auth required pam_fprintd.so max-tries=1` (+ an `account` line). A matching finger is a match, a
/// non-matching one (PAM_MAXTRIES / PAM_AUTH_ERR) a counted failure, a timeout / no enrolment / device
/// error (PAM_AUTHINFO_UNAVAIL) `.biometryNotAvailable`. pam_fprintd's texts ("Swipe your finger…") reach
/// `PasscodeProvider.display(_:isError:)` of `biometricResponder`. Tested end to end against fprintd with
/// libfprint's virtual device (`FprintdTests`).
public struct PAMAuthenticator: Sendable {
    /// Which PAM services, user and files to use.
    public struct Configuration: Sendable {
        /// The PAM service for the passcode (a file of that name in `/etc/pam.d` or the config directory).
        public var service: String
        /// The user to authenticate; `nil` is the user this process runs as.
        public var user: String?
        /// A directory of PAM service files used instead of `/etc/pam.d` (`pam_start_confdir`).
        public var configurationDirectory: URL?
        /// A PAM service that performs the biometric check; `nil` means no biometry.
        public var biometricService: String?
        /// Answers prompts the biometric stack sends, if any (pam_fprintd sends only text messages).
        public var biometricResponder: (any PasscodeProvider)?
        /// The sensor type reported when `biometricService` is set.
        public var biometryType: BiometryType
        /// The state file (lockout counter, generation, secrets).
        public var stateURL: URL

        /// A configuration; the defaults are service "latchkey", the current user, `/etc/pam.d`,
        /// no biometry and `$XDG_STATE_HOME/latchkey/pam-secrets`.
        public init(service: String = "latchkey", user: String? = nil, configurationDirectory: URL? = nil,
                    biometricService: String? = nil, biometricResponder: (any PasscodeProvider)? = nil,
                    biometryType: BiometryType = .touchID,
                    stateURL: URL = StateDirectory.url().appendingPathComponent("pam-secrets")) {
            self.service = service
            self.user = user
            self.configurationDirectory = configurationDirectory
            self.biometricService = biometricService
            self.biometricResponder = biometricResponder
            self.biometryType = biometryType
            self.stateURL = stateURL
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    let file: LockedStateFile<PAMDeviceState>

    /// An authenticator for `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        file = LockedStateFile(url: configuration.stateURL) { PAMDeviceState() }
    }

    /// The user PAM is asked about.
    public var user: String { configuration.user ?? Self.currentUser() }

    /// A new context.
    public func makeContext(passcodeProvider: (any PasscodeProvider)? = nil,
                            clock: AuthenticationClock = .system) -> DeviceOwnerContext {
        DeviceOwnerContext(device: PAMDevice(authenticator: self, clock: clock),
                           passcodeProvider: passcodeProvider, clock: clock)
    }

    /// Records an observed enrolment change: `domainState` and the `biometryCurrentSet` secret change.
    public func noteEnrollmentChanged() throws(StateFileError) {
        try file.update { $0.enrollmentChanged() }
    }

    /// Consecutive failed biometric attempts (5 → lockout).
    public func failedAttempts() throws(StateFileError) -> Int { try file.read().failedAttempts }

    /// The name of the user this process runs as.
    static func currentUser() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "root"
    }
}
#endif
