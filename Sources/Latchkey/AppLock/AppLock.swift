import Foundation
import LatchkeyAuth
import Observation

/// The lock screen of an app as an observable state machine (`@Observable`, main actor).
///
/// - `launch()`: a biometric enrolment change forces a new login (tokens cleared); a session still within
///   `sessionTimeout` is unlocked at once; no valid tokens → `.needsLogin`; otherwise biometrics.
/// - Biometric lockout or nothing enrolled (or not available) → the device-passcode fallback;
///   `unlockWithPasscode()` is the lock screen's "Use Passcode".
/// - Cancel → `.locked`, no error. Fallback button → `.locked` with `passwordFallbackRequested` (the app shows
///   its own password field, then calls `didAuthenticateWithPassword()`).
/// - `didEnterBackground()` starts the timeout (or locks at once when `lockOnBackground`);
///   `willEnterForeground()` re-authenticates once the timeout has passed.
///
/// ```swift
/// @State var lock = AppLock(authenticator: BiometricAuthenticator(), hasValidTokens: { await tokens.hasTokens })
/// .task { await lock.launch() }
/// .onChange(of: scenePhase) { if $0 == .background { lock.didEnterBackground() } ... }
/// ```
@MainActor
@Observable
public final class AppLock {
    /// Settings.
    public struct Configuration: Sendable {
        /// How long a session lasts without activity or in the background (default 300 s).
        public var sessionTimeout: TimeInterval
        /// Lock as soon as the app goes to the background instead of after the timeout.
        public var lockOnBackground: Bool
        /// The text of the biometric prompt.
        public var reason: String
        /// Whether `launch()` prompts by itself when a login exists but the session expired (default true).
        /// An app with its own unlock screen sets false and calls `unlock()` (or authenticates another way
        /// and calls `didAuthenticate()`).
        public var authenticateOnLaunch: Bool

        /// Creates settings.
        public init(sessionTimeout: TimeInterval = 300, lockOnBackground: Bool = false,
                    reason: String = "Unlock the app", authenticateOnLaunch: Bool = true) {
            self.sessionTimeout = sessionTimeout
            self.lockOnBackground = lockOnBackground
            self.reason = reason
            self.authenticateOnLaunch = authenticateOnLaunch
        }
    }

    /// The current state.
    public private(set) var state: AppLockState = .locked
    /// True after the user chose the fallback button: show the app's password entry.
    public private(set) var passwordFallbackRequested = false
    /// True when the last unlock went through the passcode fallback (lockout / not enrolled) or "Use Passcode".
    public private(set) var usedPasscodeFallback = false
    /// The sensor, for the lock screen's icon.
    public var biometryType: BiometryType { authenticator.biometryType }
    /// Whether biometrics can be used now, or why not (`.lockout`, `.notEnrolled`...: `unlock()` then goes to the
    /// passcode), for the lock screen's button.
    public var biometryAvailability: Result<Void, AuthError> { authenticator.availability }
    /// Why the lock is `.failed` (`nil` in every other state), for a screen that words the error in its own language.
    public var failure: AuthError? {
        if case .failed = state { return lastFailure }
        return nil
    }

    /// Settings.
    public let configuration: Configuration
    @ObservationIgnored private let authenticator: BiometricAuthenticator
    @ObservationIgnored private let hasValidTokens: @Sendable () async -> Bool
    @ObservationIgnored private let clearTokens: @Sendable () async -> Void
    @ObservationIgnored private let changeDetector: BiometricChangeDetector?
    @ObservationIgnored private let sessions: any AppSessionStore
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private var backgroundedAt: Date?
    @ObservationIgnored private var lastFailure: AuthError?

    /// Creates the lock.
    /// - Parameters:
    ///   - authenticator: biometrics (and the passcode fallback).
    ///   - hasValidTokens: whether the user still has a usable login (e.g. `TokenManager.hasTokens`).
    ///   - clearTokens: called when biometric enrolment changed (log out).
    ///   - changeDetector: consulted at launch; `nil` skips the check.
    ///   - sessions: where the last-active time survives relaunches.
    ///   - now: the clock.
    public init(configuration: Configuration = Configuration(), authenticator: BiometricAuthenticator,
                hasValidTokens: @escaping @Sendable () async -> Bool = { true },
                clearTokens: @escaping @Sendable () async -> Void = {},
                changeDetector: BiometricChangeDetector? = nil,
                sessions: any AppSessionStore = MemoryAppSessionStore(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.authenticator = authenticator
        self.hasValidTokens = hasValidTokens
        self.clearTokens = clearTokens
        self.changeDetector = changeDetector
        self.sessions = sessions
        self.now = now
    }

    // MARK: - Lifecycle

    /// App launch.
    public func launch() async {
        if let changeDetector {
            let change: BiometricChangeDetector.Change?
            do { change = try await changeDetector.check() } catch { change = nil }  // unknown → treat as changed
            if change != .unchanged && change != .firstCheck {
                await clearTokens()
                sessions.setLastActive(nil)
                state = .needsLogin
                return
            }
        }
        if let last = sessions.lastActive(), now().timeIntervalSince(last) < configuration.sessionTimeout,
           last <= now(), await hasValidTokens() {
            startSession()
            return
        }
        guard await hasValidTokens() else {
            sessions.setLastActive(nil)
            state = .needsLogin
            return
        }
        state = .locked
        if configuration.authenticateOnLaunch { await unlock() }
    }

    /// The app went to the background.
    public func didEnterBackground() {
        guard state == .unlocked else { return }
        backgroundedAt = now()
        sessions.setLastActive(now())
        if configuration.lockOnBackground { lock() }
    }

    /// The app is coming back: unlocked within the timeout stays unlocked; otherwise authenticate.
    public func willEnterForeground() async {
        defer { backgroundedAt = nil }
        if state == .unlocked {
            let since = backgroundedAt ?? sessions.lastActive() ?? now()
            if now().timeIntervalSince(since) < configuration.sessionTimeout {
                recordActivity()
                return
            }
            lock()
        }
        guard state == .locked || isFailed else { return }
        await unlock()
    }

    /// User activity while unlocked (extends the session).
    public func recordActivity() {
        guard state == .unlocked else { return }
        sessions.setLastActive(now())
    }

    /// Locks when the session has been idle for longer than the timeout. Returns true if it locked.
    @discardableResult
    public func lockIfIdle() -> Bool {
        guard state == .unlocked, let last = sessions.lastActive() else { return false }
        guard now().timeIntervalSince(last) >= configuration.sessionTimeout else { return false }
        lock()
        return true
    }

    /// Locks now (a lock button, a signal). Ends the session.
    public func lock() {
        sessions.setLastActive(nil)
        passwordFallbackRequested = false
        if state != .needsLogin { state = .locked }
    }

    /// The user logged in with the app's password (or a new account login): unlocked, new session.
    public func didAuthenticateWithPassword() {
        startSession()
    }

    /// The app proved the user another way (e.g. `PasswordLogin.logInWithBiometrics`): unlocked, new session.
    public func didAuthenticate() {
        startSession()
    }

    /// The user logged out.
    public func didLogOut() {
        sessions.setLastActive(nil)
        state = .needsLogin
    }

    // MARK: - Authentication

    /// Asks for biometrics; on lockout / not enrolled / unavailable falls back to the device passcode.
    public func unlock() async {
        guard state != .authenticating, state != .needsLogin else { return }
        state = .authenticating
        passwordFallbackRequested = false
        usedPasscodeFallback = false
        switch await authenticator.authenticate(reason: configuration.reason) {
        case .success:
            startSession()
        case .failure(let error):
            switch error {
            case .lockout, .notEnrolled, .notAvailable:
                await passcodeFallback()
            case .userFallback:
                passwordFallbackRequested = true
                state = .locked
            default:
                finish(with: error)
            }
        }
    }

    /// The device passcode ("Use Passcode"), after biometrics where they are usable, as
    /// `LAPolicy.deviceOwnerAuthentication` does (iOS has no passcode-only policy).
    public func unlockWithPasscode() async {
        guard state != .authenticating, state != .needsLogin else { return }
        state = .authenticating
        passwordFallbackRequested = false
        await passcodeFallback()
    }

    private func passcodeFallback() async {
        usedPasscodeFallback = true
        switch await authenticator.authenticateWithPasscodeFallback(reason: configuration.reason) {
        case .success: startSession()
        case .failure(let error): finish(with: error)
        }
    }

    private func finish(with error: AuthError) {
        lastFailure = error
        state = error.isCancellation ? .locked : .failed(error.message(in: .current))
    }

    private var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    private func startSession() {
        passwordFallbackRequested = false
        sessions.setLastActive(now())
        state = .unlocked
    }
}
