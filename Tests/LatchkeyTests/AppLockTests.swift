import Foundation
import LatchkeySupport
import Testing
@testable import Latchkey
import LatchkeyAuth

/// One step of a scenario and the state expected after it.
private enum Step: Sendable, CustomStringConvertible {
    case launch, background, foreground, lock, unlock, unlockWithPasscode, passwordLogin, lockIfIdle, relaunch
    case advance(TimeInterval)

    var description: String {
        switch self {
        case .advance(let seconds): "advance(\(Int(seconds)))"
        default: "\(self)".components(separatedBy: "(").first ?? ""
        }
    }
}

/// How the device is set up before the scenario.
private struct Setup: Sendable {
    var enrolled = true
    var lockedOut = false
    var passcode: String? = "2468"
    var tokens = true
    var sessionAge: TimeInterval?
    var enrollmentChangedSinceTrusted = false
    var lockOnBackground = false
    var authenticateOnLaunch = true
    var outcomes: [BiometricScanOutcome] = []
}

private struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var setup: Setup
    var steps: [(Step, AppLockState)]
    var passwordFallbackRequested = false
    var usedPasscodeFallback = false
    var tokensCleared = false
    var testDescription: String { name }
}

private let failedMessage = AuthError.failed.message(in: .current)

private let rows: [Row] = [
    Row(name: "launch: session within timeout → unlocked without a prompt",
        setup: Setup(sessionAge: 120), steps: [(.launch, .unlocked)]),
    Row(name: "launch: session expired, no tokens → needsLogin",
        setup: Setup(tokens: false, sessionAge: 400), steps: [(.launch, .needsLogin)]),
    Row(name: "launch: no session, no tokens → needsLogin",
        setup: Setup(tokens: false), steps: [(.launch, .needsLogin)]),
    Row(name: "launch: tokens, biometric match → unlocked",
        setup: Setup(outcomes: [.match]), steps: [(.launch, .unlocked)]),
    Row(name: "launch: expired session, biometric match → unlocked",
        setup: Setup(sessionAge: 301, outcomes: [.match]), steps: [(.launch, .unlocked)]),
    Row(name: "launch: no match → failed(message)",
        setup: Setup(outcomes: [.noMatch]), steps: [(.launch, .failed(failedMessage))]),
    Row(name: "failed → retry with a match → unlocked",
        setup: Setup(outcomes: [.noMatch, .match]), steps: [(.launch, .failed(failedMessage)), (.unlock, .unlocked)]),
    Row(name: "launch: cancel → locked, no error",
        setup: Setup(outcomes: [.cancel]), steps: [(.launch, .locked)]),
    Row(name: "launch: system cancel → locked, no error",
        setup: Setup(outcomes: [.systemCancel]), steps: [(.launch, .locked)]),
    Row(name: "fallback button → locked + password requested → password login → unlocked",
        setup: Setup(outcomes: [.fallback]), steps: [(.launch, .locked), (.passwordLogin, .unlocked)],
        passwordFallbackRequested: false),
    Row(name: "fallback button leaves the password request visible",
        setup: Setup(outcomes: [.fallback]), steps: [(.launch, .locked)], passwordFallbackRequested: true),
    Row(name: "not enrolled → passcode fallback → unlocked",
        setup: Setup(enrolled: false), steps: [(.launch, .unlocked)], usedPasscodeFallback: true),
    Row(name: "lockout → passcode fallback → unlocked",
        setup: Setup(lockedOut: true), steps: [(.launch, .unlocked)], usedPasscodeFallback: true),
    Row(name: "lockout → passcode sheet canceled → locked",
        setup: Setup(lockedOut: true, passcode: nil), steps: [(.launch, .locked)], usedPasscodeFallback: true),
    Row(name: "lockout → wrong passcode → failed",
        setup: Setup(lockedOut: true, passcode: "0000"), steps: [(.launch, .failed(failedMessage))],
        usedPasscodeFallback: true),
    Row(name: "Use Passcode: no match, then the passcode → unlocked",
        setup: Setup(authenticateOnLaunch: false, outcomes: [.noMatch]),
        steps: [(.launch, .locked), (.unlockWithPasscode, .unlocked)], usedPasscodeFallback: true),
    Row(name: "Use Passcode: a match is enough (biometrics come first, as with deviceOwnerAuthentication)",
        setup: Setup(authenticateOnLaunch: false, outcomes: [.match]),
        steps: [(.launch, .locked), (.unlockWithPasscode, .unlocked)], usedPasscodeFallback: true),
    Row(name: "Use Passcode: sheet canceled → locked, no error",
        setup: Setup(passcode: nil, authenticateOnLaunch: false, outcomes: [.noMatch]),
        steps: [(.launch, .locked), (.unlockWithPasscode, .locked)], usedPasscodeFallback: true),
    Row(name: "Use Passcode: wrong passcode → failed; after a failure too",
        setup: Setup(passcode: "0000", authenticateOnLaunch: false, outcomes: [.noMatch, .noMatch]),
        steps: [(.launch, .locked), (.unlockWithPasscode, .failed(failedMessage)),
                (.unlockWithPasscode, .failed(failedMessage))], usedPasscodeFallback: true),
    Row(name: "Use Passcode needs a login first",
        setup: Setup(tokens: false), steps: [(.launch, .needsLogin), (.unlockWithPasscode, .needsLogin)]),
    Row(name: "enrolment changed since trusted → needsLogin, tokens cleared",
        setup: Setup(sessionAge: 10, enrollmentChangedSinceTrusted: true, outcomes: [.match]),
        steps: [(.launch, .needsLogin)], tokensCleared: true),
    Row(name: "background within timeout → foreground stays unlocked",
        setup: Setup(outcomes: [.match]),
        steps: [(.launch, .unlocked), (.background, .unlocked), (.advance(299), .unlocked), (.foreground, .unlocked)]),
    Row(name: "background past timeout → foreground re-authenticates",
        setup: Setup(outcomes: [.match, .match]),
        steps: [(.launch, .unlocked), (.background, .unlocked), (.advance(301), .unlocked), (.foreground, .unlocked)]),
    Row(name: "background past timeout → foreground, cancel → locked",
        setup: Setup(outcomes: [.match, .cancel]),
        steps: [(.launch, .unlocked), (.background, .unlocked), (.advance(301), .unlocked), (.foreground, .locked)]),
    Row(name: "lock on background (configurable) → locked at once → foreground authenticates",
        setup: Setup(lockOnBackground: true, outcomes: [.match, .match]),
        steps: [(.launch, .unlocked), (.background, .locked), (.foreground, .unlocked)]),
    Row(name: "idle past the timeout → locked",
        setup: Setup(outcomes: [.match]),
        steps: [(.launch, .unlocked), (.advance(200), .unlocked), (.lockIfIdle, .unlocked), (.advance(101), .unlocked),
                (.lockIfIdle, .locked)]),
    Row(name: "manual lock → locked → unlock with a match → unlocked",
        setup: Setup(outcomes: [.match, .match]),
        steps: [(.launch, .unlocked), (.lock, .locked), (.unlock, .unlocked)]),
    Row(name: "launch without auto-prompt (app's own unlock screen) → locked → unlock → unlocked",
        setup: Setup(authenticateOnLaunch: false, outcomes: [.match]), steps: [(.launch, .locked), (.unlock, .unlocked)]),
    Row(name: "relaunch within the timeout → unlocked without a prompt",
        setup: Setup(outcomes: [.match]),
        steps: [(.launch, .unlocked), (.background, .unlocked), (.advance(60), .unlocked), (.relaunch, .unlocked)]),
    Row(name: "relaunch after the timeout → authenticates",
        setup: Setup(outcomes: [.match, .cancel]),
        steps: [(.launch, .unlocked), (.background, .unlocked), (.advance(400), .unlocked), (.relaunch, .locked)]),
]

/// Records the lock's state each time a prompt appears (it must be `.authenticating`).
private final class PromptObserver: PasscodeProvider {
    let answer: String?
    let seen = Locked<[AppLockState]>([])
    let lock = Locked<AppLock?>(nil)

    init(answer: String?) { self.answer = answer }

    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { answer.map { Passcode($0) } }

    func promptDidAppear(_ prompt: AuthenticationPrompt) async {
        guard let appLock = lock.withLock({ $0 }) else { return }
        let state = await MainActor.run { appLock.state }
        seen.withLock { $0.append(state) }
    }
}

@MainActor
@Suite struct AppLockTests {
    @Test(arguments: rows)
    fileprivate func transition(_ row: Row) async throws {
        let phone = try SimulatedPhone(enrolled: row.setup.enrolled)
        defer { phone.cleanUp() }
        let clock = TestClock()
        let simulator = phone.simulator
        let observer = PromptObserver(answer: row.setup.passcode)
        let authenticator = phone.authenticator(passcodeProvider: observer)
        if row.setup.lockedOut {
            try await phone.lockOut()
            #expect(try simulator.sensor().isLockedOut)
        }
        let domainStates = MemoryDomainStateStore()
        let detector = BiometricChangeDetector(store: domainStates) { simulator.makeContext() }
        _ = try await detector.check()  // trusts the current enrolment
        if row.setup.enrollmentChangedSinceTrusted { try simulator.enroll() }
        for outcome in row.setup.outcomes { try simulator.enqueue(outcome) }

        let tokens = Locked(row.setup.tokens)
        let cleared = Locked(false)
        let sessions = MemoryAppSessionStore(row.setup.sessionAge.map { clock.now.addingTimeInterval(-$0) })
        func makeLock() -> AppLock {
            let appLock = AppLock(configuration: .init(sessionTimeout: 300, lockOnBackground: row.setup.lockOnBackground,
                                                       authenticateOnLaunch: row.setup.authenticateOnLaunch),
                                  authenticator: authenticator,
                                  hasValidTokens: { tokens.withLock { $0 } },
                                  clearTokens: { tokens.withLock { $0 = false }; cleared.withLock { $0 = true } },
                                  changeDetector: detector, sessions: sessions, now: clock.closure)
            observer.lock.withLock { $0 = appLock }
            return appLock
        }
        var appLock = makeLock()
        for (index, (step, expected)) in row.steps.enumerated() {
            switch step {
            case .launch: await appLock.launch()
            case .relaunch:
                appLock = makeLock()
                await appLock.launch()
            case .background: appLock.didEnterBackground()
            case .foreground: await appLock.willEnterForeground()
            case .lock: appLock.lock()
            case .unlock: await appLock.unlock()
            case .unlockWithPasscode: await appLock.unlockWithPasscode()
            case .passwordLogin: appLock.didAuthenticateWithPassword()
            case .lockIfIdle: appLock.lockIfIdle()
            case .advance(let seconds): clock.advance(seconds)
            }
            #expect(appLock.state == expected, "step \(index) \(step)")
            // `failure` is the error behind `.failed` (to word it in another language), and only then.
            if case .failed(let text) = appLock.state {
                #expect(appLock.failure?.message(in: .current) == text)
            } else {
                #expect(appLock.failure == nil)
            }
        }
        #expect(appLock.passwordFallbackRequested == row.passwordFallbackRequested)
        #expect(appLock.usedPasscodeFallback == row.usedPasscodeFallback)
        #expect(cleared.withLock { $0 } == row.tokensCleared)
        // Every prompt was shown while the lock said `.authenticating`.
        #expect(observer.seen.withLock { $0 }.allSatisfy { $0 == .authenticating })
    }

    @Test func biometryTypeIsShown() throws {
        let phone = try SimulatedPhone(biometry: .touchID)
        defer { phone.cleanUp() }
        let appLock = AppLock(authenticator: phone.authenticator())
        #expect(appLock.biometryType == .touchID)
        #expect(appLock.state == .locked)
        #expect(throws: Never.self) { try appLock.biometryAvailability.get() }
        let notEnrolled = try SimulatedPhone(biometry: .faceID, enrolled: false)
        defer { notEnrolled.cleanUp() }
        let unenrolledLock = AppLock(authenticator: notEnrolled.authenticator())
        #expect(throws: AuthError.notEnrolled) { try unenrolledLock.biometryAvailability.get() }
    }
}
