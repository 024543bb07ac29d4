import Foundation
import LatchkeySupport
import Testing
@testable import Latchkey
import LatchkeyAuth

/// The texts the lock screen must show, written out in both languages.
private enum Words {
    static let locked = Bilingual("Locked", "잠겨 있음")
    static let unlocking = Bilingual("Unlocking…", "잠금 해제 중…")
    static let unlockFailed = Bilingual("Unlock Failed", "잠금 해제 실패")
    static let loginRequired = Bilingual("Log In Required", "로그인 필요")
    static let unlocked = Bilingual("Unlocked", "잠금 해제됨")
    static let logIn = Bilingual("Log In", "로그인")
    static let enterPassword = Bilingual("Enter your password to continue.", "계속하려면 비밀번호를 입력하세요.")
    static let sessionEnded = Bilingual("Your session has ended. Log in to continue.",
                                   "세션이 종료되었습니다. 계속하려면 로그인하세요.")
    static let enterPasscode = Bilingual("Enter your device passcode to unlock the app.",
                                    "기기 암호를 입력하여 앱의 잠금을 해제하세요.")
    static let lockout = Bilingual("Too many failed attempts. Enter your passcode to re-enable biometrics.",
                              "시도 횟수가 너무 많습니다. 생체 인증을 다시 사용하려면 암호를 입력하세요.")
    static let noPasscode = Bilingual("Set a device passcode to use this feature.", "이 기능을 사용하려면 기기 암호를 설정하세요.")
    static let authenticationFailed = Bilingual("Authentication failed. Try again.", "인증에 실패했습니다. 다시 시도하세요.")
    static let usePasscode = Bilingual("Use Passcode", "암호 사용")
    static let logInWithPassword = Bilingual("Log In with Password", "비밀번호로 로그인")
}

/// How the device owner gets in, and what the screen says about it.
private enum Way: Sendable {
    case faceID, touchID, opticID, passcode, lockout, noPasscode

    var unlockTitle: Bilingual {
        switch self {
        case .faceID: Bilingual("Unlock with Face ID", "Face ID로 잠금 해제")
        case .touchID: Bilingual("Unlock with Touch ID", "Touch ID로 잠금 해제")
        case .opticID: Bilingual("Unlock with Optic ID", "Optic ID로 잠금 해제")
        case .passcode, .lockout, .noPasscode: Bilingual("Unlock with Passcode", "암호로 잠금 해제")
        }
    }

    var symbol: String {
        switch self {
        case .faceID: "faceid"
        case .touchID: "touchid"
        case .opticID: "opticid"
        case .passcode, .lockout, .noPasscode: "lock"
        }
    }

    var lockedMessage: Bilingual {
        switch self {
        case .faceID: Bilingual("Use Face ID to unlock the app.", "Face ID를 사용하여 앱의 잠금을 해제하세요.")
        case .touchID: Bilingual("Use Touch ID to unlock the app.", "Touch ID를 사용하여 앱의 잠금을 해제하세요.")
        case .opticID: Bilingual("Use Optic ID to unlock the app.", "Optic ID를 사용하여 앱의 잠금을 해제하세요.")
        case .passcode: Words.enterPasscode
        case .lockout: Words.lockout
        case .noPasscode: Words.noPasscode
        }
    }

    var isBiometric: Bool { [.faceID, .touchID, .opticID].contains(self) }
}

/// What the screen shows, as plain values.
private struct Screen: Equatable, Sendable {
    var presentation: LockScreenModel.Presentation
    var title: String
    var message: String?
    var symbol: String
    var primary: LockScreenModel.PrimaryButton?
    var usePasscode: String?
    var passwordLogin: String?
    var passwordForm: Bool
    var cover: Bool

    @MainActor init(_ model: LockScreenModel) {
        presentation = model.presentation
        title = model.title
        message = model.message
        symbol = model.systemImageName
        primary = model.primaryButton
        usePasscode = model.showsUsePasscode ? model.usePasscodeTitle : nil
        passwordLogin = model.showsPasswordLogin ? model.passwordLoginTitle : nil
        passwordForm = model.isPasswordLoginPresented
        cover = model.isPrivacyCoverShown
    }

    init(presentation: LockScreenModel.Presentation, title: String, message: String?, symbol: String,
         primary: LockScreenModel.PrimaryButton?, usePasscode: String?, passwordLogin: String?, passwordForm: Bool,
         cover: Bool) {
        (self.presentation, self.title, self.message, self.symbol) = (presentation, title, message, symbol)
        (self.primary, self.usePasscode, self.passwordLogin) = (primary, usePasscode, passwordLogin)
        (self.passwordForm, self.cover) = (passwordForm, cover)
    }
}

/// An expected screen, in either language.
private struct Expect: Sendable {
    var make: @Sendable (MessageLanguage) -> Screen

    /// Locked (waiting for the user).
    static func locked(_ way: Way, passwordLogin: Bool = false, passwordForm: Bool = false,
                       cover: Bool = false) -> Expect {
        waiting(way, title: Words.locked, message: passwordForm ? Words.enterPassword : way.lockedMessage,
                passwordLogin: passwordLogin, passwordForm: passwordForm, cover: cover)
    }

    /// The last attempt failed with `message`.
    static func failed(_ way: Way, _ message: Bilingual, passwordLogin: Bool = false, cover: Bool = false) -> Expect {
        waiting(way, title: Words.unlockFailed, message: message, passwordLogin: passwordLogin, passwordForm: false,
                cover: cover)
    }

    private static func waiting(_ way: Way, title: Bilingual, message: Bilingual, passwordLogin: Bool, passwordForm: Bool,
                                cover: Bool) -> Expect {
        Expect { language in
            Screen(presentation: .lockScreen, title: title(language), message: message(language), symbol: way.symbol,
                   primary: way == .noPasscode ? nil
                       : .init(title: way.unlockTitle(language), systemImageName: way.symbol, isEnabled: true),
                   usePasscode: way.isBiometric ? Words.usePasscode(language) : nil,
                   passwordLogin: passwordLogin ? Words.logInWithPassword(language) : nil,
                   passwordForm: passwordForm, cover: cover)
        }
    }

    /// Unlocked: the app's content.
    static func content(cover: Bool = false) -> Expect {
        Expect { language in
            Screen(presentation: .content, title: Words.unlocked(language), message: nil, symbol: "lock.open",
                   primary: nil, usePasscode: nil, passwordLogin: nil, passwordForm: false, cover: cover)
        }
    }

    /// No usable session: the app's login.
    static func needsLogin(passwordLogin: Bool, passwordForm: Bool = false) -> Expect {
        Expect { language in
            Screen(presentation: .login, title: Words.loginRequired(language), message: Words.sessionEnded(language),
                   symbol: "person.crop.circle",
                   primary: passwordLogin ? .init(title: Words.logIn(language), systemImageName: "person.crop.circle",
                                                  isEnabled: true) : nil,
                   usePasscode: nil, passwordLogin: nil, passwordForm: passwordForm, cover: false)
        }
    }
}

private enum Step: Sendable {
    case launch, primary, usePasscode, logInWithPassword, dismissPasswordForm, loggedInWithPassword, logOut, lock
    /// Settings → Face ID → Reset Face ID.
    case unenroll
    case phase(AppPhase)
    case advance(TimeInterval)
}

private struct Setup: Sendable {
    var biometry: BiometryType = .faceID
    var enrolled = true
    var lockedOut = false
    var passcodeSet = true
    /// What the passcode sheet answers (`nil`: Cancel).
    var answer: String? = "2468"
    var tokens = true
    var allowsPasswordLogin = false
    var lockOnBackground = false
    var outcomes: [BiometricScanOutcome] = []
}

private struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var setup = Setup()
    var steps: [(Step, Expect)]
    /// How many prompts (biometric or passcode) the steps must show.
    var prompts: Int
    var testDescription: String { name }
}

private let rows: [Row] = [
    Row(name: "Face ID: the button names the sensor, Use Passcode shows",
        steps: [(.launch, .locked(.faceID))], prompts: 0),
    Row(name: "Touch ID", setup: Setup(biometry: .touchID), steps: [(.launch, .locked(.touchID))], prompts: 0),
    Row(name: "Optic ID", setup: Setup(biometry: .opticID), steps: [(.launch, .locked(.opticID))], prompts: 0),
    Row(name: "unlock: a match → content",
        setup: Setup(outcomes: [.match]), steps: [(.launch, .locked(.faceID)), (.primary, .content())], prompts: 1),
    Row(name: "unlock: no match → the failure in words → retry with a match → content",
        setup: Setup(outcomes: [.noMatch, .match]),
        steps: [(.launch, .locked(.faceID)), (.primary, .failed(.faceID, Words.authenticationFailed)),
                (.primary, .content())], prompts: 2),
    Row(name: "unlock: cancel → locked, no error",
        setup: Setup(outcomes: [.cancel]), steps: [(.primary, .locked(.faceID))], prompts: 1),
    Row(name: "unlock: the system cancels → locked, no error",
        setup: Setup(outcomes: [.systemCancel]), steps: [(.primary, .locked(.faceID))], prompts: 1),
    Row(name: "Use Passcode: Face ID first, then the passcode → content",
        setup: Setup(outcomes: [.noMatch]), steps: [(.usePasscode, .content())], prompts: 2),
    Row(name: "Use Passcode: the passcode sheet cancelled → locked, no error",
        setup: Setup(answer: nil, outcomes: [.noMatch]), steps: [(.usePasscode, .locked(.faceID))], prompts: 2),
    Row(name: "Use Passcode: a wrong passcode → the failure in words",
        setup: Setup(answer: "0000", outcomes: [.noMatch]),
        steps: [(.usePasscode, .failed(.faceID, Words.authenticationFailed))], prompts: 2),
    Row(name: "lockout: the passcode is the way in, with the lockout's words → content",
        setup: Setup(lockedOut: true), steps: [(.launch, .locked(.lockout)), (.primary, .content())], prompts: 1),
    Row(name: "lockout reached on the lock screen: fifth failure → passcode sheet cancelled → passcode button",
        setup: Setup(answer: nil, outcomes: Array(repeating: .noMatch, count: 5)),
        steps: [(.primary, .failed(.faceID, Words.authenticationFailed)),
                (.primary, .failed(.faceID, Words.authenticationFailed)),
                (.primary, .failed(.faceID, Words.authenticationFailed)),
                (.primary, .failed(.faceID, Words.authenticationFailed)),
                (.primary, .locked(.lockout))], prompts: 6),
    Row(name: "nothing enrolled → passcode → content",
        setup: Setup(enrolled: false), steps: [(.launch, .locked(.passcode)), (.primary, .content())], prompts: 1),
    Row(name: "no sensor → passcode → content",
        setup: Setup(biometry: .none, enrolled: false), steps: [(.launch, .locked(.passcode)), (.primary, .content())],
        prompts: 1),
    Row(name: "no device passcode: no unlock button, the app's password only",
        setup: Setup(passcodeSet: false, allowsPasswordLogin: true),
        steps: [(.launch, .locked(.noPasscode, passwordLogin: true)),
                (.logInWithPassword, .locked(.noPasscode, passwordLogin: true, passwordForm: true)),
                (.loggedInWithPassword, .content())], prompts: 0),
    Row(name: "the prompt's fallback button → the password form → dismissed → locked",
        setup: Setup(allowsPasswordLogin: true, outcomes: [.fallback]),
        steps: [(.primary, .locked(.faceID, passwordLogin: true, passwordForm: true)),
                (.dismissPasswordForm, .locked(.faceID, passwordLogin: true))], prompts: 1),
    Row(name: "Log In with Password → the form → logged in → content",
        setup: Setup(allowsPasswordLogin: true),
        steps: [(.launch, .locked(.faceID, passwordLogin: true)),
                (.logInWithPassword, .locked(.faceID, passwordLogin: true, passwordForm: true)),
                (.loggedInWithPassword, .content())], prompts: 0),
    Row(name: "no password login: asking for the form does nothing",
        steps: [(.logInWithPassword, .locked(.faceID))], prompts: 0),
    Row(name: "no tokens → the login, whose button opens the password form → content",
        setup: Setup(tokens: false, allowsPasswordLogin: true),
        steps: [(.launch, .needsLogin(passwordLogin: true)),
                (.primary, .needsLogin(passwordLogin: true, passwordForm: true)),
                (.loggedInWithPassword, .content())], prompts: 0),
    Row(name: "no tokens, no password login → the login without a button",
        setup: Setup(tokens: false), steps: [(.launch, .needsLogin(passwordLogin: false))], prompts: 0),
    Row(name: "logged out while unlocked → the login",
        setup: Setup(outcomes: [.match]), steps: [(.primary, .content()), (.logOut, .needsLogin(passwordLogin: false))],
        prompts: 1),
    Row(name: "locked by hand → locked",
        setup: Setup(outcomes: [.match]), steps: [(.primary, .content()), (.lock, .locked(.faceID))], prompts: 1),
    Row(name: "privacy cover while unlocked: inactive, background → covered; back within the timeout → content",
        setup: Setup(outcomes: [.match]),
        steps: [(.primary, .content()), (.phase(.inactive), .content(cover: true)),
                (.phase(.background), .content(cover: true)), (.advance(60), .content(cover: true)),
                (.phase(.inactive), .content(cover: true)), (.phase(.active), .content())], prompts: 1),
    Row(name: "privacy cover over the lock screen too",
        steps: [(.launch, .locked(.faceID)), (.phase(.background), .locked(.faceID, cover: true)),
                (.phase(.inactive), .locked(.faceID, cover: true))], prompts: 0),
    Row(name: "inactive → active (Control Center, a system sheet) does not prompt",
        steps: [(.launch, .locked(.faceID)), (.phase(.inactive), .locked(.faceID, cover: true)),
                (.phase(.active), .locked(.faceID))], prompts: 0),
    Row(name: "back after the timeout → prompts; a match → content",
        setup: Setup(outcomes: [.match, .match]),
        steps: [(.primary, .content()), (.phase(.inactive), .content(cover: true)),
                (.phase(.background), .content(cover: true)), (.advance(301), .content(cover: true)),
                (.phase(.inactive), .content(cover: true)), (.phase(.active), .content())], prompts: 2),
    Row(name: "back after the timeout → prompts; cancelled → locked, no error, no cover",
        setup: Setup(outcomes: [.match, .cancel]),
        steps: [(.primary, .content()), (.phase(.background), .content(cover: true)),
                (.advance(301), .content(cover: true)), (.phase(.active), .locked(.faceID))], prompts: 2),
    Row(name: "lock on background → locked and covered at once → back → prompts → content",
        setup: Setup(lockOnBackground: true, outcomes: [.match, .match]),
        steps: [(.primary, .content()), (.phase(.background), .locked(.faceID, cover: true)),
                (.phase(.active), .content())], prompts: 2),
    Row(name: "enrolment removed while away → back: the passcode is asked; cancelled → the passcode button",
        setup: Setup(answer: nil, lockOnBackground: true, outcomes: [.match]),
        steps: [(.primary, .content()), (.phase(.background), .locked(.faceID, cover: true)),
                (.unenroll, .locked(.faceID, cover: true)), (.phase(.active), .locked(.passcode))], prompts: 2),
]

@MainActor
@Suite struct LockScreenModelTests {
    @Test(arguments: rows, MessageLanguage.allCases)
    fileprivate func screen(_ row: Row, _ language: MessageLanguage) async throws {
        let phone = try SimulatedPhone(biometry: row.setup.biometry, enrolled: row.setup.enrolled)
        defer { phone.cleanUp() }
        if row.setup.lockedOut { try await phone.lockOut() }
        if !row.setup.passcodeSet { try phone.simulator.setPasscode(nil) }
        for outcome in row.setup.outcomes { try phone.simulator.enqueue(outcome) }
        let hook = PromptHook(answer: row.setup.answer)
        let clock = TestClock()
        let tokens = Locked(row.setup.tokens)
        let appLock = AppLock(configuration: .init(sessionTimeout: 300, lockOnBackground: row.setup.lockOnBackground,
                                                   authenticateOnLaunch: false),
                              authenticator: phone.authenticator(passcodeProvider: hook),
                              hasValidTokens: { tokens.withLock { $0 } }, now: clock.closure)
        let model = LockScreenModel(appLock: appLock, allowsPasswordLogin: row.setup.allowsPasswordLogin,
                                    language: language)
        // A system prompt makes the app inactive while it is up: the screen must say so, without the cover.
        let duringPrompts = Locked<[Screen]>([])
        hook.onPrompt { _ in
            model.scenePhaseChanged(to: .inactive)
            duringPrompts.withLock { $0.append(Screen(model)) }
            model.scenePhaseChanged(to: .active)
        }
        for (index, (step, expected)) in row.steps.enumerated() {
            switch step {
            case .launch: await model.launch()
            case .primary: await model.performPrimaryAction()
            case .usePasscode: await model.usePasscode()
            case .logInWithPassword: model.logInWithPassword()
            case .dismissPasswordForm: model.isPasswordLoginPresented = false
            case .loggedInWithPassword: model.didLogInWithPassword()
            case .logOut: appLock.didLogOut()
            case .lock: appLock.lock()
            case .unenroll: try phone.simulator.unenroll()
            case .phase(let phase): await model.scenePhaseChanged(to: phase)?.value
            case .advance(let seconds): clock.advance(seconds)
            }
            #expect(Screen(model) == expected.make(language), "step \(index): \(step)")
        }
        let prompts = duringPrompts.withLock { $0 }
        #expect(prompts.count == row.prompts)
        for screen in prompts {
            #expect(screen.presentation == .lockScreen && screen.title == Words.unlocking(language))
            #expect(screen.message == nil && screen.primary?.isEnabled != true)
            #expect(screen.usePasscode == nil && screen.passwordLogin == nil && !screen.cover)
        }
    }
}
