import Foundation
import LatchkeyTestSupport
import LatchkeyAuthCore
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LatchkeySupport
import LocalAuthentication
import Security
import Testing

/// The Linux stores every conformance row runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, vault, secretService
    var testDescription: String { rawValue }

    private static let environment = ProcessInfo.processInfo.environment
    /// gnome-keyring of scripts/with-services.sh.
    static let secretServiceAvailable = environment["LATCHKEY_TEST_SECRET_SERVICE"] == "1"
    /// `make test`: a missing service fails instead of being left out.
    static let servicesRequired = environment["LATCHKEY_REQUIRE_SERVICES"] == "1"

    /// The stores to run: all three under scripts/with-services.sh (or when services are required, so a missing
    /// keyring fails), memory and vault otherwise.
    static var available: [StoreKind] {
        secretServiceAvailable || servicesRequired ? allCases : [.memory, .vault]
    }
}

/// What the prompts of the simulated device answer: the passcode "1234", and the application password of the moment.
final class PromptAnswers: PasscodeProvider, Sendable {
    static let passcode = "1234"
    /// The application password the prompts answer unless told otherwise.
    static let appPasswordValue = "app-secret"
    private let applicationPassword = Locked(PromptAnswers.appPasswordValue)
    private let log = Locked((asked: 0, refusing: false))

    /// How many prompts were shown.
    var asked: Int { log.withLock { $0.asked } }

    /// While true, every prompt is cancelled (and still counted).
    var refusing: Bool {
        get { log.withLock { $0.refusing } }
        set { log.withLock { $0.refusing = newValue } }
    }

    var appPassword: String {
        get { applicationPassword.withLock { $0 } }
        set { applicationPassword.withLock { $0 = newValue } }
    }

    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? {
        let refusing = log.withLock { log in
            log.asked += 1
            return log.refusing
        }
        if refusing { return nil }
        return switch prompt.kind {
        case .passcode: Passcode(Self.passcode)
        case .applicationPassword: Passcode(appPassword)
        case .biometry: nil
        }
    }
}

/// One store installed as the `SecItem…` store of the test's thread, a fresh simulated device (Face ID enrolled, passcode "1234", every
/// scan a match) behind every new `LAContext`, and an access group of its own, so rows on the shared keyring
/// never see another test's items.
final class Facade: @unchecked Sendable { // used by one test on one thread
    let kind: StoreKind
    let store: any ItemStore
    let group = "conformance.\(UUID().uuidString)"
    let simulator: SimulatedAuthenticator
    let prompts = PromptAnswers()
    private let directory: URL
    private var counter = 0

    init(_ kind: StoreKind) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lk-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch kind {
        case .memory:
            let memory = MemoryStore(defaultAccessGroup: group)
            memory.applicationPasswordKDF = .testing
            store = memory
        case .vault:
            let vault = try FileVault(url: directory.appendingPathComponent("c.vault"), defaultAccessGroup: group, kdf: .testing)
            try vault.unlock(passphrase: "conformance")
            vault.applicationPasswordKDF = .testing
            store = vault
        case .secretService:
            try #require(StoreKind.secretServiceAvailable,
                         "LATCHKEY_TEST_SECRET_SERVICE=1 is not set: run under scripts/with-services.sh")
            let service = try SecretServiceStore()
            service.applicationPasswordKDF = .testing
            service.defaultAccessGroup = group
            store = service
        }
        simulator = SimulatedAuthenticator(stateURL: directory.appendingPathComponent("simulator.json"))
        try simulator.reset(biometryType: .faceID)
        try simulator.setPasscode(Passcode(PromptAnswers.passcode))
        try simulator.enroll()
        try simulator.setDefaultOutcome(.match)
        // This thread only (`onThread`): tests of other targets run beside this one on the process-wide store.
        LatchkeySecurityConfiguration.threadStore = store
        let simulator = self.simulator, prompts = self.prompts
        LatchkeyLocalAuthenticationConfiguration.threadMakeContext = { simulator.makeContext(passcodeProvider: prompts) }
    }

    /// Deletes what the test left (its access group, every class, synchronizable or not) and the temporary files.
    func cleanUp() {
        for itemClass in ["genp", "inet", "cert", "keys"] {
            _ = SecItemDelete(["class": itemClass, "agrp": group, "sync": "syna"] as CFDictionary)
        }
        LatchkeySecurityConfiguration.threadStore = nil
        LatchkeyLocalAuthenticationConfiguration.threadMakeContext = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// A value no other item of this test has.
    func unique(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)-\(counter)"
    }

    // MARK: SecItem calls with Swift dictionaries

    func add(_ attributes: [String: Any]) -> OSStatus { SecItemAdd(attributes as CFDictionary, nil) }

    func addReturning(_ attributes: [String: Any]) -> (OSStatus, AnyObject?) {
        var result: CFTypeRef?
        let status = SecItemAdd(attributes as CFDictionary, &result)
        return (status, result)
    }

    func copy(_ query: [String: Any]) -> (OSStatus, AnyObject?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    func update(_ query: [String: Any], _ changes: [String: Any]) -> OSStatus {
        SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    }

    func delete(_ query: [String: Any]) -> OSStatus { SecItemDelete(query as CFDictionary) }

    /// The attributes of the one item `query` finds (nil when it finds none).
    func attributes(_ query: [String: Any]) -> [String: Any]? {
        var q = query
        q["r_Attributes"] = true
        q["m_Limit"] = "m_LimitOne"
        guard case let (status, result) = copy(q), status == errSecSuccess, let dict = result as? NSDictionary else { return nil }
        var out: [String: Any] = [:]
        for (k, v) in dict { if let key = k as? String ?? (k as? NSString).map({ String($0) }) { out[key] = v } }
        return out
    }

    // MARK: Authentication

    /// A context of the simulated device that proved biometry and/or the passcode (no prompt left for the keychain).
    func context(biometry: Bool, passcode: Bool) throws -> LAContext {
        let context = LAContext()
        if biometry {
            try wait { done in context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "conformance", reply: done) }
        }
        if passcode {
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil))
            try wait { done in
                context.evaluateAccessControl(control, operation: .useItem, localizedReason: "conformance", reply: done)
            }
        }
        return context
    }

    /// Runs an evaluation that replies on another thread and waits for it (this runs on a thread of its own).
    private func wait(_ start: (@escaping (Bool, (any Error)?) -> Void) -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<(Bool, String?)>((false, nil))
        start { ok, error in
            outcome.withLock { $0 = (ok, error.map { "\($0)" }) }
            done.signal()
        }
        done.wait()
        let (ok, error) = outcome.withLock { $0 }
        try #require(ok, "evaluation failed: \(error ?? "?")")
    }
}


/// The name of an OSStatus (`errSecParam`), or the number.
func statusName(_ status: OSStatus) -> String { KeychainStatus(status).name }

/// A status name from a table cell ("errSecParam") as a number.
func status(named name: String) -> OSStatus? {
    let known: [String: OSStatus] = [
        "errSecSuccess": errSecSuccess, "errSecParam": errSecParam, "errSecItemNotFound": errSecItemNotFound,
        "errSecNoSuchAttr": errSecNoSuchAttr, "errSecUnimplemented": errSecUnimplemented,
        "errSecInteractionNotAllowed": errSecInteractionNotAllowed, "errSecAuthFailed": errSecAuthFailed,
        "errSecUserCanceled": errSecUserCanceled, "errSecDuplicateItem": errSecDuplicateItem,
    ]
    return known[name]
}
