import Foundation
import LatchkeySupport
import Testing
@testable import Latchkey
import LatchkeyAuth

private enum Words {
    static let enterUserName = Bilingual("Enter a user name.", "사용자 이름을 입력하세요.")
    static let enterPassword = Bilingual("Enter your password.", "비밀번호를 입력하세요.")
    static let tooShort = Bilingual("The password must be at least 8 characters long.", "비밀번호는 8자 이상이어야 합니다.")
    static let mismatch = Bilingual("The passwords do not match.", "비밀번호가 일치하지 않습니다.")
    static let hint = Bilingual("Use at least 8 characters.", "8자 이상 입력하세요.")
    static let invalid = Bilingual("The user name or password is incorrect.", "사용자 이름 또는 비밀번호가 올바르지 않습니다.")
    static let accountExists = Bilingual("An account already exists on this device.", "이 기기에 이미 계정이 있습니다.")
    static let shortcutUnavailable = Bilingual("Biometric login is not available; log in with your password.",
                                          "생체 인증 로그인을 사용할 수 없습니다. 비밀번호로 로그인하세요.")
    static let authenticationFailed = Bilingual("Authentication failed. Try again.", "인증에 실패했습니다. 다시 시도하세요.")
    static func retry(_ seconds: Int) -> Bilingual {
        Bilingual("Too many failed attempts. Try again in \(seconds) seconds.",
             "실패 횟수가 너무 많습니다. \(seconds)초 후에 다시 시도하세요.")
    }
}

// MARK: - Validation

private struct ValidationRow: Sendable, CustomTestStringConvertible {
    var name: String
    var hasAccount: Bool
    var username: String
    var password: String
    var confirmation = ""
    var errors: [PasswordFormError]
    /// The text `submit()` shows for the first error.
    var submitError: Bilingual?
    var mismatchShown = false
    var testDescription: String { name }
}

private let validationRows: [ValidationRow] = [
    ValidationRow(name: "log in, empty form", hasAccount: true, username: "", password: "",
                  errors: [.usernameMissing, .passwordMissing], submitError: Words.enterUserName),
    ValidationRow(name: "log in, blank user name", hasAccount: true, username: "  \n", password: "pw",
                  errors: [.usernameMissing], submitError: Words.enterUserName),
    ValidationRow(name: "log in, no password", hasAccount: true, username: "mina", password: "",
                  errors: [.passwordMissing], submitError: Words.enterPassword),
    ValidationRow(name: "log in, a short password is for PasswordLogin to judge", hasAccount: true, username: "mina",
                  password: "x", errors: [], submitError: nil),
    ValidationRow(name: "create, too short", hasAccount: false, username: "mina", password: "short",
                  confirmation: "short", errors: [.passwordTooShort(minimumLength: 8)], submitError: Words.tooShort),
    ValidationRow(name: "create, no password", hasAccount: false, username: "mina", password: "",
                  errors: [.passwordMissing], submitError: Words.enterPassword),
    ValidationRow(name: "create, confirmation differs", hasAccount: false, username: "mina", password: "correct horse",
                  confirmation: "correct hors", errors: [.passwordsDoNotMatch], submitError: Words.mismatch,
                  mismatchShown: true),
    ValidationRow(name: "create, confirmation not typed yet", hasAccount: false, username: "mina",
                  password: "correct horse", errors: [.passwordsDoNotMatch], submitError: Words.mismatch),
    ValidationRow(name: "create, everything right", hasAccount: false, username: "mina", password: "correct horse",
                  confirmation: "correct horse", errors: [], submitError: nil),
]

// MARK: - Submissions

private enum Step: Sendable {
    case fill(String, String)
    case submit
    case advance(TimeInterval)
}

private struct Expect: Sendable {
    var error: Bilingual?
    /// Seconds the throttle message counts down from (0: no message).
    var retryAfter = 0
    var sessions = 0
}

private struct SubmitRow: Sendable, CustomTestStringConvertible {
    var name: String
    var hasAccount = true
    var priorFailures = 0
    var steps: [(Step, Expect)]
    var testDescription: String { name }
}

private let wrong = Step.fill("mina", "wrong horse")
private let right = Step.fill("mina", "correct horse")

private let submitRows: [SubmitRow] = [
    SubmitRow(name: "the right password → logged in",
              steps: [(right, Expect()), (.submit, Expect(sessions: 1))]),
    SubmitRow(name: "a wrong password → the invalid-credentials text",
              steps: [(wrong, Expect()), (.submit, Expect(error: Words.invalid))]),
    SubmitRow(name: "a wrong user name → the same text",
              steps: [(.fill("mona", "correct horse"), Expect()), (.submit, Expect(error: Words.invalid))]),
    SubmitRow(name: "the fifth failure → throttled 30 s, counting down with the clock, then the right password works",
              priorFailures: 4,
              steps: [(wrong, Expect()), (.submit, Expect(error: Words.invalid, retryAfter: 30)),
                      (right, Expect(error: Words.invalid, retryAfter: 30)),
                      (.advance(12), Expect(error: Words.invalid, retryAfter: 18)),
                      (.advance(17.5), Expect(error: Words.invalid, retryAfter: 1)),
                      (.advance(0.5), Expect(error: Words.invalid)),
                      (.submit, Expect(sessions: 1))]),
    SubmitRow(name: "throttled: submitting is refused before PasswordLogin is asked",
              priorFailures: 5,
              steps: [(right, Expect(retryAfter: 30)), (.submit, Expect(retryAfter: 30)),
                      (.advance(30), Expect()), (.submit, Expect(sessions: 1))]),
    SubmitRow(name: "the sixth failure doubles the wait",
              priorFailures: 5,
              steps: [(.advance(30), Expect()), (wrong, Expect()),
                      (.submit, Expect(error: Words.invalid, retryAfter: 60))]),
    SubmitRow(name: "create the account → logged in",
              hasAccount: false, steps: [(.fill(" mina ", "correct horse"), Expect()), (.submit, Expect(sessions: 1))]),
]

@MainActor
@Suite struct PasswordLoginFormModelTests {
    let clock = TestClock()

    private func login(_ store: any ItemStore = MemoryStore()) -> PasswordLogin {
        PasswordLogin(keychain: Keychain(service: "org.latchkey.test.form", store: store), hashStrength: .testing,
                      now: clock.closure)
    }

    /// mina's account, with the biometric shortcut on.
    private func accountWithShortcut(on phone: SimulatedPhone) async throws -> PasswordLogin {
        let login = login()
        let session = try login.createAccount(username: "mina", password: "correct horse")
        try phone.next(.match)
        try await login.enableBiometricShortcut(after: session, authenticator: phone.authenticator(), reason: "Enable")
        return login
    }

    @Test(arguments: validationRows, MessageLanguage.allCases)
    fileprivate func validation(_ row: ValidationRow, _ language: MessageLanguage) async throws {
        let login = login()
        if row.hasAccount { try login.createAccount(username: "mina", password: "correct horse") }
        let model = PasswordLoginFormModel(login: login, language: language) { _ in Issue.record("no login expected") }
        #expect(model.mode == (row.hasAccount ? .logIn : .createAccount))
        #expect(model.showsPasswordConfirmation == !row.hasAccount)
        #expect(model.passwordHint == (row.hasAccount ? nil : Words.hint(language)))
        model.username = row.username
        model.password = row.password
        model.passwordConfirmation = row.confirmation
        #expect(model.validationErrors == row.errors)
        #expect(model.isSubmitEnabled == row.errors.isEmpty)
        #expect(model.passwordConfirmationMessage == (row.mismatchShown ? Words.mismatch(language) : nil))
        guard let submitError = row.submitError else { return }
        await model.submit()
        #expect(model.errorMessage == submitError(language))
        // Refused by the form: PasswordLogin was not asked, the fields are kept.
        #expect(login.hasAccount == row.hasAccount && login.throttleState == LoginThrottleState())
        #expect(model.password == row.password)
    }

    @Test(arguments: submitRows, MessageLanguage.allCases)
    fileprivate func submission(_ row: SubmitRow, _ language: MessageLanguage) async throws {
        let login = login()
        if row.hasAccount { try login.createAccount(username: "mina", password: "correct horse") }
        for attempt in 0..<row.priorFailures {
            #expect(throws: PasswordLoginError.invalidCredentials) {
                try login.logIn(username: "mina", password: "no\(attempt)")
            }
        }
        var sessions: [PasswordLogin.Session] = []
        let model = PasswordLoginFormModel(login: login, language: language) { sessions.append($0) }
        for (index, (step, expected)) in row.steps.enumerated() {
            switch step {
            case .fill(let username, let password):
                model.username = username
                model.password = password
                model.passwordConfirmation = password
            case .submit:
                let throttled = model.retryAfterSeconds > 0, failures = login.throttleState.failures
                let typed = model.password
                await model.submit()
                #expect(!model.isSubmitting)
                if throttled {
                    // Refused by the form: PasswordLogin counted nothing, the fields are kept.
                    #expect(login.throttleState.failures == failures && model.password == typed, "step \(index)")
                } else {
                    #expect(model.password.isEmpty && model.passwordConfirmation.isEmpty, "cleared at step \(index)")
                }
            case .advance(let seconds):
                clock.advance(seconds)
            }
            #expect(model.errorMessage == expected.error?(language), "step \(index)")
            #expect(model.retryAfterSeconds == expected.retryAfter, "step \(index)")
            let countdown = expected.retryAfter > 0 ? Words.retry(expected.retryAfter)(language) : nil
            #expect(model.throttleMessage == countdown, "step \(index)")
            let submittable = expected.retryAfter == 0 && model.validationErrors.isEmpty
            #expect(model.isSubmitEnabled == submittable, "step \(index)")
            #expect(sessions.count == expected.sessions, "step \(index)")
        }
        #expect(sessions.allSatisfy { $0.username == "mina" && $0.method == .password })
        #expect(model.mode == .logIn || sessions.isEmpty)
    }

    @Test(arguments: MessageLanguage.allCases)
    func createModeTitlesAndAnAccountMadeMeanwhile(_ language: MessageLanguage) async throws {
        let login = login()
        let first = PasswordLoginFormModel(login: login, language: language) { _ in }
        let second = PasswordLoginFormModel(login: login, language: language) { _ in }
        #expect(first.title == Bilingual("Create Account", "계정 만들기")(language) && first.submitTitle == first.title)
        #expect(first.usernameLabel == Bilingual("User Name", "사용자 이름")(language))
        #expect(first.passwordLabel == Bilingual("Password", "비밀번호")(language))
        #expect(first.passwordConfirmationLabel == Bilingual("Confirm Password", "비밀번호 확인")(language))
        for model in [first, second] {
            (model.username, model.password, model.passwordConfirmation) = ("mina", "correct horse", "correct horse")
        }
        await first.submit()
        #expect(first.mode == .logIn && first.title == Bilingual("Log In", "로그인")(language))
        #expect(!first.showsPasswordConfirmation && first.passwordHint == nil)
        await second.submit()
        #expect(second.errorMessage == Words.accountExists(language))
        #expect(second.mode == .createAccount)
    }

    /// Password AutoFill: the user name field, then a new password (suggested and saved) while the account is created,
    /// a saved password once it exists.
    @Test func theFieldsTellAutoFillWhatTheyHold() async throws {
        let login = login()
        let model = PasswordLoginFormModel(login: login, language: .english) { _ in }
        #expect(model.mode == .createAccount)
        #expect(model.usernameContentType == .username)
        #expect(model.passwordContentType == .newPassword && model.passwordConfirmationContentType == .newPassword)
        (model.username, model.password, model.passwordConfirmation) = ("mina", "correct horse", "correct horse")
        await model.submit()
        #expect(model.mode == .logIn)
        #expect(model.usernameContentType == .username && model.passwordContentType == .password)
        #expect(AutoFillContentType.allCases.map(\.rawValue) == ["username", "password", "newPassword"])
    }

    @Test func oneSubmissionAtATime() async throws {
        let store = GatedStore()
        let login = login(store)
        try login.createAccount(username: "mina", password: "correct horse")
        var sessions = 0
        let model = PasswordLoginFormModel(login: login, language: .english) { _ in sessions += 1 }
        (model.username, model.password) = ("mina", "correct horse")
        store.arm()
        let first = Task { await model.submit() }
        for await _ in store.entered { break }
        // PasswordLogin is working: the button is disabled, the password already out of the field.
        #expect(model.isSubmitting && !model.isSubmitEnabled && model.password.isEmpty)
        model.password = "correct horse"
        await model.submit()
        await model.logInWithBiometrics()
        #expect(model.password == "correct horse", "a second submission must not start")
        store.release()
        await first.value
        #expect(sessions == 1 && !model.isSubmitting)
    }

    @Test func thePasswordIsNeverPrinted() async throws {
        let model = PasswordLoginFormModel(login: login(), language: .english) { _ in }
        (model.username, model.password, model.passwordConfirmation) = ("mina", "hunter2-Secret", "hunter2-Secret")
        var dumped = ""
        dump(model, to: &dumped)
        for text in [String(describing: model), String(reflecting: model), dumped, "\(model)"] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
        await model.submit()
        #expect(model.password.isEmpty && model.passwordConfirmation.isEmpty)
    }

    // MARK: - Biometrics

    @Test(arguments: MessageLanguage.allCases)
    func nextTimeToggleEnablesTheShortcut(_ language: MessageLanguage) async throws {
        let phone = try SimulatedPhone(biometry: .touchID)
        defer { phone.cleanUp() }
        let login = login()
        try login.createAccount(username: "mina", password: "correct horse")
        var sessions: [PasswordLogin.Session] = []
        let model = PasswordLoginFormModel(login: login, authenticator: phone.authenticator(), language: language) {
            sessions.append($0)
        }
        #expect(model.showsBiometricToggle && !model.enablesBiometricLogin && !model.showsBiometricLogin)
        #expect(model.biometricToggleTitle == Bilingual("Log in with Touch ID next time", "다음에는 Touch ID로 로그인")(language))
        model.enablesBiometricLogin = true
        (model.username, model.password) = ("mina", "correct horse")
        try phone.next(.match)
        await model.submit()
        #expect(sessions.map(\.method) == [.password])
        #expect(login.isBiometricShortcutEnabled && model.isBiometricLoginEnabled && model.showsBiometricLogin)
        #expect(model.biometricLoginTitle == Bilingual("Log In with Touch ID", "Touch ID로 로그인")(language))
        #expect(model.biometricSystemImageName == "touchid")

        // A new form (the next launch) offers the biometric login, which needs a match.
        let next = PasswordLoginFormModel(login: login, authenticator: phone.authenticator(), language: language) {
            sessions.append($0)
        }
        #expect(next.showsBiometricLogin && next.enablesBiometricLogin)
        try phone.next(.cancel)
        await next.logInWithBiometrics()
        #expect(next.errorMessage == nil && sessions.count == 1, "a cancelled prompt is not an error")
        try phone.next(.fallback)
        await next.logInWithBiometrics()
        #expect(next.errorMessage == nil && sessions.count == 1, "the fallback button leads to the password fields")
        try phone.next(.noMatch)
        await next.logInWithBiometrics()
        #expect(next.errorMessage == Words.authenticationFailed(language) && sessions.count == 1)
        try phone.next(.match)
        await next.logInWithBiometrics()
        #expect(next.errorMessage == nil && sessions.map(\.method) == [.password, .biometrics])

        // A new finger: the shortcut no longer opens and turns itself off.
        try phone.simulator.enroll()
        try phone.next(.match)
        await next.logInWithBiometrics()
        #expect(next.errorMessage == Words.shortcutUnavailable(language))
        #expect(!next.showsBiometricLogin && !next.enablesBiometricLogin && !login.isBiometricShortcutEnabled)
    }

    @Test func aCancelledPromptStillLogsInWithoutTheShortcut() async throws {
        let phone = try SimulatedPhone(biometry: .faceID)
        defer { phone.cleanUp() }
        let login = login()
        try login.createAccount(username: "mina", password: "correct horse")
        var sessions = 0
        let model = PasswordLoginFormModel(login: login, authenticator: phone.authenticator(),
                                           language: .english) { _ in sessions += 1 }
        (model.username, model.password, model.enablesBiometricLogin) = ("mina", "correct horse", true)
        try phone.next(.cancel)
        await model.submit()
        #expect(sessions == 1 && model.errorMessage == nil)
        #expect(!login.isBiometricShortcutEnabled && !model.enablesBiometricLogin && !model.showsBiometricLogin)
    }

    @Test func turningTheToggleOffDisablesTheShortcut() async throws {
        let phone = try SimulatedPhone(biometry: .faceID)
        defer { phone.cleanUp() }
        let login = try await accountWithShortcut(on: phone)
        let model = PasswordLoginFormModel(login: login, authenticator: phone.authenticator()) { _ in }
        #expect(model.enablesBiometricLogin && model.showsBiometricLogin)
        (model.username, model.password, model.enablesBiometricLogin) = ("mina", "correct horse", false)
        await model.submit()
        #expect(!login.isBiometricShortcutEnabled && !model.isBiometricLoginEnabled && !model.showsBiometricLogin)
    }

    @Test(arguments: [(true, "enrolled"), (false, "not enrolled")])
    func theToggleNeedsUsableBiometrics(_ enrolled: Bool, _ label: String) throws {
        let phone = try SimulatedPhone(biometry: .faceID, enrolled: enrolled)
        defer { phone.cleanUp() }
        let model = PasswordLoginFormModel(login: login(), authenticator: phone.authenticator()) { _ in }
        #expect(model.showsBiometricToggle == enrolled, "\(label)")
        let without = PasswordLoginFormModel(login: login()) { _ in }
        #expect(!without.showsBiometricToggle && !without.showsBiometricLogin)
    }

    @Test func theBiometricLoginIsOneSubmissionToo() async throws {
        let phone = try SimulatedPhone(biometry: .faceID)
        defer { phone.cleanUp() }
        let login = try await accountWithShortcut(on: phone)
        let hook = PromptHook(answer: nil)
        var sessions = 0
        let model = PasswordLoginFormModel(login: login, authenticator: phone.authenticator(passcodeProvider: hook),
                                           language: .english) { _ in sessions += 1 }
        (model.username, model.password) = ("mina", "correct horse")
        let seen = Locked<[Bool]>([])
        hook.onPrompt { _ in
            // The prompt is up: a password submission or a second prompt must not start.
            seen.withLock { $0.append(model.isSubmitting && !model.isSubmitEnabled) }
            await model.submit()
            await model.logInWithBiometrics()
        }
        try phone.next(.match)
        await model.logInWithBiometrics()
        #expect(seen.withLock { $0 } == [true])
        #expect(sessions == 1 && model.password == "correct horse")
    }
}
