import Foundation
import LatchkeyAuth
import LatchkeyCrypto
import Observation

/// Everything a lock screen shows, decided over an `AppLock`: which screen, its title, message and icon, the unlock
/// button and its label, "Use Passcode" and "Log In with Password", and the privacy cover. LatchkeyUI's `LockScreen`
/// and `privacyCover(_:)` only lay this out.
///
/// - The unlock button names the sensor ("Unlock with Face ID"); when biometrics cannot be used (lockout, nothing
///   enrolled, no sensor) it offers the device passcode, which `AppLock.unlock()` then asks for at once.
/// - A cancelled prompt leaves the screen locked without an error; a failure shows its text in `language`.
/// - The privacy cover hides the app whenever it is not active — unlocked too, so the app switcher's snapshot shows
///   nothing — except while a Face ID / passcode prompt is up (the prompt itself makes the app inactive, and the lock
///   screen already hides the content).
/// - Returning from the background hands over to `AppLock.willEnterForeground()` (which re-authenticates once the
///   session timed out); a mere inactive → active (a prompt, Control Center) does not.
///
/// ```swift
/// @State var lockScreen = LockScreenModel(appLock: AppLock(authenticator: BiometricAuthenticator()),
///                                         allowsPasswordLogin: true)
/// ```
@MainActor
@Observable
public final class LockScreenModel {
    /// Which screen the app shows.
    public enum Presentation: Sendable, Hashable {
        /// The app's content (unlocked).
        case content
        /// The lock screen.
        case lockScreen
        /// The app's login: no usable session (`AppLockState.needsLogin`).
        case login
    }

    /// How the device owner unlocks.
    public enum UnlockMethod: Sendable, Hashable {
        /// Face ID, Touch ID or Optic ID.
        case biometry(BiometryType)
        /// The device passcode: biometrics are locked out, not enrolled or absent (the error says which).
        case passcode(AuthError)
        /// Neither (no device passcode is set): only the app's own password can unlock.
        case unavailable(AuthError)
    }

    /// The screen's main button.
    public struct PrimaryButton: Sendable, Hashable {
        /// Its title.
        public var title: String
        /// Its SF Symbol.
        public var systemImageName: String
        /// False while a prompt is up.
        public var isEnabled: Bool
    }

    /// The lock.
    public let appLock: AppLock
    /// Whether the app has a password login to offer ("Log In with Password", and the biometric prompt's fallback).
    public let allowsPasswordLogin: Bool
    /// The language of every text.
    public let language: MessageLanguage
    /// How the device owner unlocks, as last read from the sensor (`refreshBiometry()`).
    public private(set) var unlockMethod: UnlockMethod
    /// The scene phase last reported (`scenePhaseChanged(to:)`).
    public private(set) var phase: AppPhase = .active
    private var passwordLoginRequested = false
    @ObservationIgnored private var wasInBackground = false

    /// A model over `appLock`, its texts in `language`.
    public init(appLock: AppLock, allowsPasswordLogin: Bool = false, language: MessageLanguage = .current) {
        self.appLock = appLock
        self.allowsPasswordLogin = allowsPasswordLogin
        self.language = language
        unlockMethod = Self.unlockMethod(of: appLock)
    }

    // MARK: - What the screen shows

    /// Which screen the app shows now.
    public var presentation: Presentation {
        switch appLock.state {
        case .unlocked: .content
        case .needsLogin: .login
        case .locked, .authenticating, .failed: .lockScreen
        }
    }

    /// The title.
    public var title: String {
        switch appLock.state {
        case .locked: language.pick(english: "Locked", korean: "잠겨 있음")
        case .authenticating: language.pick(english: "Unlocking…", korean: "잠금 해제 중…")
        case .failed: language.pick(english: "Unlock Failed", korean: "잠금 해제 실패")
        case .needsLogin: language.pick(english: "Log In Required", korean: "로그인 필요")
        case .unlocked: language.pick(english: "Unlocked", korean: "잠금 해제됨")
        }
    }

    /// The line under the title, if any.
    public var message: String? {
        switch appLock.state {
        case .locked where isPasswordLoginPresented:
            language.pick(english: "Enter your password to continue.", korean: "계속하려면 비밀번호를 입력하세요.")
        case .locked:
            switch unlockMethod {
            case .biometry(let type):
                language.pick(english: "Use \(type.displayName(in: language)) to unlock the app.",
                              korean: "\(type.displayName(in: language))를 사용하여 앱의 잠금을 해제하세요.")
            case .passcode(.lockout):
                AuthError.lockout.message(in: language)
            case .passcode:
                language.pick(english: "Enter your device passcode to unlock the app.",
                              korean: "기기 암호를 입력하여 앱의 잠금을 해제하세요.")
            case .unavailable(let error):
                error.message(in: language)
            }
        case .failed(let text):
            appLock.failure?.message(in: language) ?? text
        case .needsLogin:
            language.pick(english: "Your session has ended. Log in to continue.",
                          korean: "세션이 종료되었습니다. 계속하려면 로그인하세요.")
        case .authenticating, .unlocked:
            nil
        }
    }

    /// The large symbol above the title.
    public var systemImageName: String {
        switch appLock.state {
        case .unlocked: "lock.open"
        case .needsLogin: "person.crop.circle"
        case .locked, .authenticating, .failed: unlockSystemImageName
        }
    }

    /// The unlock button (or "Log In" when a login is needed and the app has one); `nil` when there is none.
    public var primaryButton: PrimaryButton? {
        switch appLock.state {
        case .locked, .failed, .authenticating:
            if case .unavailable = unlockMethod { return nil }
            return PrimaryButton(title: unlockTitle, systemImageName: unlockSystemImageName,
                                 isEnabled: appLock.state != .authenticating)
        case .needsLogin where allowsPasswordLogin:
            return PrimaryButton(title: language.pick(english: "Log In", korean: "로그인"),
                                 systemImageName: "person.crop.circle", isEnabled: true)
        case .needsLogin, .unlocked:
            return nil
        }
    }

    /// Whether "Use Passcode" shows: on the lock screen while biometrics are the main way in.
    public var showsUsePasscode: Bool {
        guard case .biometry = unlockMethod else { return false }
        return isWaitingForUser
    }

    /// "Use Passcode".
    public var usePasscodeTitle: String { language.pick(english: "Use Passcode", korean: "암호 사용") }

    /// Whether "Log In with Password" shows.
    public var showsPasswordLogin: Bool { allowsPasswordLogin && isWaitingForUser }

    /// "Log In with Password".
    public var passwordLoginTitle: String {
        language.pick(english: "Log In with Password", korean: "비밀번호로 로그인")
    }

    /// Whether the app's password form is up: the user asked for it here, or chose the biometric prompt's fallback
    /// button. Setting false (the form was dismissed) goes back to the lock screen.
    public var isPasswordLoginPresented: Bool {
        get {
            guard allowsPasswordLogin, isWaitingForUser || appLock.state == .needsLogin else { return false }
            return passwordLoginRequested || appLock.passwordFallbackRequested
        }
        set {
            passwordLoginRequested = newValue && allowsPasswordLogin
            if !newValue && appLock.passwordFallbackRequested { appLock.lock() }
        }
    }

    /// Whether the privacy cover hides the app (see the type's notes).
    public var isPrivacyCoverShown: Bool { phase != .active && appLock.state != .authenticating }

    // MARK: - Actions

    /// App launch: `AppLock.launch()`, then the sensor is read again.
    public func launch() async {
        await appLock.launch()
        refreshBiometry()
    }

    /// The primary button: unlock (biometrics, or the passcode when they cannot be used), or, when a login is needed,
    /// the password form.
    public func performPrimaryAction() async {
        switch appLock.state {
        case .needsLogin:
            isPasswordLoginPresented = true
        case .locked, .failed:
            passwordLoginRequested = false
            await appLock.unlock()
            refreshBiometry()
        case .authenticating, .unlocked:
            break
        }
    }

    /// "Use Passcode".
    public func usePasscode() async {
        guard isWaitingForUser else { return }
        passwordLoginRequested = false
        await appLock.unlockWithPasscode()
        refreshBiometry()
    }

    /// "Log In with Password": presents the app's password form.
    public func logInWithPassword() {
        isPasswordLoginPresented = true
    }

    /// The password form logged the user in: unlocked, new session.
    public func didLogInWithPassword() {
        passwordLoginRequested = false
        appLock.didAuthenticateWithPassword()
    }

    /// Reports a scene-phase change. Synchronous, so the cover is up before the system takes the app switcher's
    /// snapshot. A return from the background starts `AppLock.willEnterForeground()` (which may prompt) and returns
    /// that task; await it to know where the lock ended.
    @discardableResult
    public func scenePhaseChanged(to newPhase: AppPhase) -> Task<Void, Never>? {
        phase = newPhase
        switch newPhase {
        case .background:
            guard !wasInBackground else { return nil }
            wasInBackground = true
            appLock.didEnterBackground()
            return nil
        case .inactive:
            return nil
        case .active:
            guard wasInBackground else { return nil }
            wasInBackground = false
            refreshBiometry()
            return Task { await appLock.willEnterForeground() }
        }
    }

    /// Reads the sensor again (enrolment or a lockout may have changed).
    public func refreshBiometry() {
        unlockMethod = Self.unlockMethod(of: appLock)
    }

    // MARK: - Derived

    /// Locked or failed: the screen waits for the user.
    private var isWaitingForUser: Bool {
        switch appLock.state {
        case .locked, .failed: true
        case .authenticating, .unlocked, .needsLogin: false
        }
    }

    private var unlockTitle: String {
        switch unlockMethod {
        case .biometry(let type): type.unlockTitle(in: language)
        case .passcode, .unavailable: BiometryType.none.unlockTitle(in: language)
        }
    }

    private var unlockSystemImageName: String {
        switch unlockMethod {
        case .biometry(let type): type.systemImageName
        case .passcode, .unavailable: BiometryType.none.systemImageName
        }
    }

    private static func unlockMethod(of appLock: AppLock) -> UnlockMethod {
        switch appLock.biometryAvailability {
        case .success:
            let type = appLock.biometryType
            return type == .none ? .passcode(.notAvailable) : .biometry(type)
        case .failure(.passcodeNotSet):
            return .unavailable(.passcodeNotSet)
        case .failure(let error):
            return .passcode(error)
        }
    }
}
