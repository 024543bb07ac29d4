import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import LatchkeyCrypto
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// A temporary directory removed when the value is released.
final class TempDir: @unchecked Sendable { // immutable after init
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lk-kc-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A small stand-in for an authentication context: a fake sensor whose next evaluation matches, fails or
/// is canceled, and which releases per-domain secrets only after a successful evaluation.
final class FakeContext: AuthenticationContext, @unchecked Sendable { // guarded by `lock`
    enum Outcome { case match, noMatch, cancel, passcode }
    private let lock = NSLock()
    private var evaluatedBiometry = false
    private var evaluatedPasscode = false
    private var _invalid = false
    var outcome: Outcome = .match
    /// Changes on re-enrolment (what biometryCurrentSet secrets depend on).
    var enrollment = Data("finger-A".utf8)
    let deviceSecret = Data("device-secret".utf8)

    var biometryType: BiometryType { .touchID }
    var domainState: Data? { enrollment }
    var localizedFallbackTitle: String?
    var localizedCancelTitle: String?
    var reuseDuration: Double = 0
    var interactionNotAllowed = false

    func canEvaluate(_ policy: Policy) throws(AuthenticationError) {}

    func evaluate(_ policy: Policy, reason: String) async throws(AuthenticationError) {
        try evaluateNow(policy)
    }

    func evaluateNow(_ policy: Policy) throws(AuthenticationError) {
        lock.lock(); defer { lock.unlock() }
        do {
            if _invalid { throw .invalidContext }
            if interactionNotAllowed { throw .notInteractive }
            switch outcome {
            case .match: evaluatedBiometry = true
            case .passcode:
                guard policy == .deviceOwnerAuthentication else { throw .authenticationFailed }
                evaluatedPasscode = true
            case .noMatch: throw .authenticationFailed
            case .cancel: throw .userCancel
            }
        }
    }

    func invalidate() { lock.withLock { _invalid = true; evaluatedBiometry = false; evaluatedPasscode = false } }

    func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        lock.lock(); defer { lock.unlock() }
        do {
            if _invalid { throw .invalidContext }
            let ok: Bool
            switch domain {
            case .biometryAny, .biometryCurrentSet: ok = evaluatedBiometry
            case .devicePasscode: ok = evaluatedPasscode
            case .userPresence: ok = evaluatedBiometry || evaluatedPasscode
            }
            guard ok else { throw .notInteractive }
            var input = deviceSecret + Data(domain.rawValue.utf8)
            if domain == .biometryCurrentSet { input += enrollment }
            return Data(SHA256.hash(data: input))
        }
    }

    /// Forgets successful evaluations (a new LAContext).
    func reset() { lock.withLock { evaluatedBiometry = false; evaluatedPasscode = false } }
}

/// The stores the shared behavioural suite runs over.
enum StoreKind: String, CaseIterable, CustomStringConvertible {
    case memory, fileVault
    var description: String { rawValue }
}

/// A store under test plus hooks to lock and unlock it.
struct StoreUnderTest {
    let store: any ItemStore
    let lock: () -> Void
    let unlock: () throws -> Void
    let reboot: () throws -> Void
    let dir: TempDir

    static func make(_ kind: StoreKind, defaultAccessGroup: String? = nil) throws -> StoreUnderTest {
        let dir = TempDir()
        switch kind {
        case .memory:
            let m = MemoryStore(defaultAccessGroup: defaultAccessGroup)
            return StoreUnderTest(store: m, lock: { m.lock() }, unlock: { m.unlock() }, reboot: { m.reboot() }, dir: dir)
        case .fileVault:
            let url = dir.file("test.vault")
            let box = VaultBox(try FileVault(url: url, defaultAccessGroup: defaultAccessGroup, kdf: .testing))
            try box.vault.unlock(passphrase: "pw")
            return StoreUnderTest(store: ForwardingStore(box: box), lock: { box.vault.lock() },
                                  unlock: { try box.vault.unlock(passphrase: "pw") },
                                  reboot: {
                                      box.vault = try FileVault(url: url, defaultAccessGroup: defaultAccessGroup, kdf: .testing)
                                  }, dir: dir)
        }
    }
}

/// Lets a test replace the vault instance (a "reboot" = a new process opening the same file).
final class VaultBox: @unchecked Sendable { // tests use it from one task at a time
    var vault: FileVault
    init(_ v: FileVault) { vault = v }
}

struct ForwardingStore: ItemStore {
    let box: VaultBox
    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        try box.vault.add(item, authenticationContext: authenticationContext)
    }
    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] { try box.vault.copyMatching(query) }
    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) { try box.vault.update(query, with: changes) }
    func delete(_ query: ItemQuery) throws(KeychainStoreError) { try box.vault.delete(query) }
}

/// The status a throwing call failed with, or `.success`.
func status(_ body: () throws -> Void) -> KeychainStatus {
    do { try body(); return .success } catch let e as KeychainStoreError { return e.status } catch { return KeychainStatus(-1) }
}

func genp(_ service: String, _ account: String, _ secret: String, group: String? = nil,
          accessibility: Accessibility? = nil, sync: Bool = false) -> Item {
    var item = Item.genericPassword(service: service, account: account, value: Data(secret.utf8), accessGroup: group,
                                    accessibility: accessibility)
    item.attributes.synchronizable = sync
    return item
}

func read(_ store: any ItemStore, _ service: String, _ account: String, group: String? = nil,
          context: (any AuthenticationContext)? = nil, ui: AuthenticationUI = .allow) throws -> String? {
    var q = ItemQuery.genericPassword(service: service, account: account, accessGroup: group)
    q.returnData = true
    q.authenticationContext = context
    q.authenticationUI = ui
    let r = try store.copyMatching(q)
    return r.first?.data.flatMap { String(data: $0, encoding: .utf8) }
}

/// Starts this test binary again running only the Swift Testing test `filter`, with `environment` added to
/// the current one; stdout is a pipe (returned), stderr is discarded. Child-mode tests use it.
func spawnTestChild(filter: String, environment extra: [String: String], stdin: Pipe? = nil) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
    process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    if let stdin { process.standardInput = stdin }
    try process.run()
    return (process, out)
}

/// Every item of `query` with its attributes and data; none is an empty list (Apple answers errSecItemNotFound).
func allItems(_ store: any ItemStore, service: String) throws -> [QueryResult] {
    var query = ItemQuery.genericPassword(service: service)
    query.matchLimit = .all
    query.returnAttributes = true
    query.returnData = true
    do {
        return try store.copyMatching(query)
    } catch {
        if error.status == .itemNotFound { return [] }
        throw error
    }
}

/// A new passphrase vault in `dir`, unlocked (fast KDF).
func unlockedVault(_ dir: TempDir) throws -> FileVault {
    let vault = try FileVault(url: dir.file("v.vault"), kdf: .testing)
    try vault.unlock(passphrase: "pw")
    return vault
}

