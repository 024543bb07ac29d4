import Foundation
import LatchkeyAuth
import LatchkeyCrypto
import Observation

/// Everything a password login form shows and does, over `PasswordLogin`: create-account mode when no account exists,
/// field checks (`PasswordLogin`'s own rules: a user name, and `minimumPasswordLength` for a new password), one
/// submission at a time, the throttle's countdown, the errors in `language`, and the "Log in with Face ID next time"
/// toggle and "Log In with Face ID" button (`PasswordLogin+Biometrics`). LatchkeyUI's `PasswordLoginForm` only lays it
/// out.
///
/// The password fields are cleared as soon as a submission starts, and the model's `description`, `debugDescription`
/// and mirror (`dump`, debuggers) never show them. `PasswordLogin`'s work (Argon2id / PBKDF2, the keychain) runs off
/// the main actor. The throttle's countdown reads `PasswordLogin`'s clock each time it is asked (a view re-reads it
/// every second while `retryAfterSeconds > 0`).
///
/// ```swift
/// let form = PasswordLoginFormModel(login: PasswordLogin(keychain: keychain),
///                                   authenticator: BiometricAuthenticator()) { _ in lockScreen.didLogInWithPassword() }
/// ```
@MainActor
@Observable
public final class PasswordLoginFormModel {
    /// What submitting does.
    public enum Mode: Sendable, Hashable {
        /// Log in to the existing account.
        case logIn
        /// Create the account (none exists yet: `PasswordLogin` keeps one per install).
        case createAccount
    }

    /// The user name field.
    public var username = ""
    /// The password field (cleared when a submission starts).
    public var password = ""
    /// The "confirm password" field of `.createAccount` (cleared with the password).
    public var passwordConfirmation = ""
    /// The "Log in with Face ID next time" toggle: applied after the next successful password login.
    public var enablesBiometricLogin: Bool
    /// Create or log in; `.logIn` once the account exists.
    public private(set) var mode: Mode
    /// True while a login runs (the buttons are disabled; another submission is ignored).
    public private(set) var isSubmitting = false
    /// The last submission's error, if it failed.
    public private(set) var error: PasswordFormError?
    /// Whether the biometric shortcut is on (a biometric login can replace the password).
    public private(set) var isBiometricLoginEnabled: Bool
    /// The language of every text.
    public let language: MessageLanguage

    @ObservationIgnored private let login: PasswordLogin
    @ObservationIgnored private let authenticator: BiometricAuthenticator?
    @ObservationIgnored private let biometryType: BiometryType
    @ObservationIgnored private let isBiometryAvailable: Bool
    @ObservationIgnored private let biometricReason: String
    @ObservationIgnored private let onLogIn: @MainActor (PasswordLogin.Session) -> Void
    private var throttle: LoginThrottleState

    /// A form over `login`.
    /// - Parameters:
    ///   - authenticator: biometrics for the "next time" toggle and the biometric login; `nil` offers neither.
    ///   - biometricReason: the biometric prompt's text (default: "Log in to your account", in `language`).
    ///   - onLogIn: receives each successful login (password, new account or biometrics).
    public init(login: PasswordLogin, authenticator: BiometricAuthenticator? = nil, biometricReason: String? = nil,
                language: MessageLanguage = .current,
                onLogIn: @escaping @MainActor (PasswordLogin.Session) -> Void) {
        self.login = login
        self.authenticator = authenticator
        self.language = language
        self.onLogIn = onLogIn
        self.biometricReason = biometricReason
            ?? language.pick(english: "Log in to your account", korean: "계정에 로그인")
        biometryType = authenticator?.biometryType ?? .none
        isBiometryAvailable = authenticator?.isAvailable ?? false
        mode = login.hasAccount ? .logIn : .createAccount
        let shortcut = login.isBiometricShortcutEnabled
        isBiometricLoginEnabled = shortcut
        enablesBiometricLogin = shortcut
        throttle = login.throttleState
    }

    // MARK: - What the form shows

    /// "Log In" or "Create Account".
    public var title: String {
        switch mode {
        case .logIn: language.pick(english: "Log In", korean: "로그인")
        case .createAccount: language.pick(english: "Create Account", korean: "계정 만들기")
        }
    }

    /// The submit button's title (the same as `title`).
    public var submitTitle: String { title }

    /// The user name field's label.
    public var usernameLabel: String { language.pick(english: "User Name", korean: "사용자 이름") }

    /// The password field's label.
    public var passwordLabel: String { language.pick(english: "Password", korean: "비밀번호") }

    /// The confirmation field's label.
    public var passwordConfirmationLabel: String {
        language.pick(english: "Confirm Password", korean: "비밀번호 확인")
    }

    /// Whether the confirmation field shows (`.createAccount`).
    public var showsPasswordConfirmation: Bool { mode == .createAccount }

    /// What AutoFill puts in the user name field.
    public var usernameContentType: AutoFillContentType { .username }

    /// What AutoFill puts in the password field: a saved password when logging in, a new one (suggested and saved)
    /// when creating the account.
    public var passwordContentType: AutoFillContentType { mode == .createAccount ? .newPassword : .password }

    /// What AutoFill puts in the confirmation field: the new password again.
    public var passwordConfirmationContentType: AutoFillContentType { .newPassword }

    /// The rule under a new password ("Use at least 8 characters."); `nil` when logging in.
    public var passwordHint: String? {
        guard mode == .createAccount else { return nil }
        let minimum = login.minimumPasswordLength
        return language.pick(english: "Use at least \(minimum) characters.", korean: "\(minimum)자 이상 입력하세요.")
    }

    /// "The passwords do not match." under a confirmation that differs (once something is typed in it).
    public var passwordConfirmationMessage: String? {
        guard mode == .createAccount, !passwordConfirmation.isEmpty, passwordConfirmation != password else {
            return nil
        }
        return PasswordFormError.passwordsDoNotMatch.message(in: language)
    }

    /// What the fields lack, in field order (empty when the form can be submitted).
    public var validationErrors: [PasswordFormError] {
        var errors: [PasswordFormError] = []
        if PasswordLogin.normalize(username).isEmpty { errors.append(.usernameMissing) }
        if password.isEmpty {
            errors.append(.passwordMissing)
        } else if mode == .createAccount && password.count < login.minimumPasswordLength {
            errors.append(.passwordTooShort(minimumLength: login.minimumPasswordLength))
        }
        if mode == .createAccount && passwordConfirmation != password { errors.append(.passwordsDoNotMatch) }
        return errors
    }

    /// Seconds before the next login may be tried (0 when it may), by `PasswordLogin`'s clock.
    public var retryAfterSeconds: Int { throttle.secondsRemaining(at: login.now()) }

    /// "Too many failed attempts. Try again in N seconds." while throttled.
    public var throttleMessage: String? {
        let seconds = retryAfterSeconds
        guard seconds > 0 else { return nil }
        return PasswordLoginError.throttled(retryAfter: seconds).message(in: language)
    }

    /// The last error's text.
    public var errorMessage: String? { error?.message(in: language) }

    /// Whether the submit button is enabled.
    public var isSubmitEnabled: Bool { !isSubmitting && validationErrors.isEmpty && retryAfterSeconds == 0 }

    /// Whether the "Log in with Face ID next time" toggle shows: biometrics can be used now.
    public var showsBiometricToggle: Bool { isBiometryAvailable }

    /// "Log in with Face ID next time".
    public var biometricToggleTitle: String {
        let name = biometryType.displayName(in: language)
        return language.pick(english: "Log in with \(name) next time", korean: "다음에는 \(name)로 로그인")
    }

    /// Whether "Log In with Face ID" shows: logging in, with the shortcut on and biometrics usable.
    public var showsBiometricLogin: Bool { mode == .logIn && isBiometricLoginEnabled && isBiometryAvailable }

    /// "Log In with Face ID".
    public var biometricLoginTitle: String {
        let name = biometryType.displayName(in: language)
        return language.pick(english: "Log In with \(name)", korean: "\(name)로 로그인")
    }

    /// The biometric login button's SF Symbol.
    public var biometricSystemImageName: String { biometryType.systemImageName }

    // MARK: - Actions

    /// Submits the form: creates the account or logs in. A second call while one runs is ignored; a form with
    /// `validationErrors` sets the first as `error` without calling `PasswordLogin`, as does a throttled one (whose
    /// `throttleMessage` already shows). On success the "next time" toggle is applied (a failed or cancelled prompt
    /// leaves the shortcut off and still logs in), then `onLogIn` runs.
    public func submit() async {
        guard !isSubmitting else { return }
        if let first = validationErrors.first {
            error = first
            return
        }
        guard retryAfterSeconds == 0 else { return }
        let username = username, password = password, mode = mode
        self.password = ""
        passwordConfirmation = ""
        error = nil
        isSubmitting = true
        defer { isSubmitting = false }
        let outcome = await Self.submit(mode, username: username, password: password, to: login)
        throttle = outcome.throttle
        switch outcome.result {
        case .success(let session):
            self.mode = .logIn
            await applyBiometricChoice(after: session)
            onLogIn(session)
        case .failure(.throttled):
            break  // `throttleMessage` counts down
        case .failure(let failure):
            error = .login(failure)
        }
    }

    /// "Log In with Face ID": the biometric shortcut. Cancelling, or choosing the prompt's fallback, shows nothing
    /// (the password fields are right there); a shortcut that no longer opens (enrolment changed) turns off.
    public func logInWithBiometrics() async {
        guard !isSubmitting, let authenticator else { return }
        error = nil
        isSubmitting = true
        defer { isSubmitting = false }
        do throws(PasswordLoginError) {
            onLogIn(try await login.logInWithBiometrics(authenticator: authenticator, reason: biometricReason))
        } catch .biometric(let failure) where failure.isCancellation || failure == .userFallback {
            return
        } catch {
            if error == .biometricShortcutUnavailable {
                isBiometricLoginEnabled = false
                enablesBiometricLogin = false
            }
            self.error = .login(error)
        }
    }

    /// Back to the form's start after the account was deleted (or the app reset it): the fields and the error
    /// cleared, create mode when no account exists any more, the biometric shortcut read again.
    public func reset() {
        guard !isSubmitting else { return }
        username = ""
        password = ""
        passwordConfirmation = ""
        error = nil
        mode = login.hasAccount ? .logIn : .createAccount
        isBiometricLoginEnabled = login.isBiometricShortcutEnabled
        enablesBiometricLogin = isBiometricLoginEnabled
        throttle = login.throttleState
    }

    // MARK: - Work

    private struct Outcome: Sendable {
        var result: Result<PasswordLogin.Session, PasswordLoginError>
        var throttle: LoginThrottleState
    }

    /// `PasswordLogin`'s hashing and keychain work, off the main actor.
    private nonisolated static func submit(_ mode: Mode, username: String, password: String,
                                           to login: PasswordLogin) async -> Outcome {
        let result: Result<PasswordLogin.Session, PasswordLoginError>
        do throws(PasswordLoginError) {
            switch mode {
            case .logIn: result = .success(try login.logIn(username: username, password: password))
            case .createAccount: result = .success(try login.createAccount(username: username, password: password))
            }
        } catch {
            result = .failure(error)
        }
        return Outcome(result: result, throttle: login.throttleState)
    }

    private func applyBiometricChoice(after session: PasswordLogin.Session) async {
        guard let authenticator, isBiometryAvailable, enablesBiometricLogin != isBiometricLoginEnabled else { return }
        do throws(PasswordLoginError) {
            if enablesBiometricLogin {
                try await login.enableBiometricShortcut(after: session, authenticator: authenticator,
                                                        reason: biometricReason)
            } else {
                try login.disableBiometricShortcut()
            }
            isBiometricLoginEnabled = enablesBiometricLogin
        } catch {
            enablesBiometricLogin = isBiometricLoginEnabled
        }
    }
}

extension PasswordLoginFormModel: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Never the password: the type and a redaction mark.
    public nonisolated var description: String { "PasswordLoginFormModel(password: <redacted>)" }

    public nonisolated var debugDescription: String { description }

    /// Mirrors without the fields, so `dump()` and debuggers cannot print the password.
    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["password": "<redacted>"], displayStyle: .class)
    }
}
