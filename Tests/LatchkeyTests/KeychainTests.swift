import Foundation
import Testing
@testable import Latchkey
import LatchkeySupport

struct Credentials: Codable, Equatable, Sendable {
    var user: String
    var token: String
    var expires: Date
    var scopes: [String]
}

/// A context that succeeds or cancels on evaluation, and releases fixed secrets once evaluated.
final class ScriptedContext: AuthenticationContext, @unchecked Sendable {
    // @unchecked: mutable state is only touched under `lock`.
    private let lock = NSLock()
    private var evaluated = false
    private var evaluations = 0
    let outcome: AuthenticationError?
    init(outcome: AuthenticationError? = nil) { self.outcome = outcome }
    var biometryType: BiometryType { .faceID }
    var domainState: Data? { Data([1]) }
    var localizedFallbackTitle: String?
    var localizedCancelTitle: String?
    var reuseDuration: Double = 0
    var interactionNotAllowed = false
    var evaluationCount: Int { lock.withLock { evaluations } }
    func canEvaluate(_ policy: Policy) throws(AuthenticationError) {}
    func evaluate(_ policy: Policy, reason: String) async throws(AuthenticationError) {
        lock.withLock { evaluations += 1 }
        if let outcome { throw outcome }
        lock.withLock { evaluated = true }
    }
    func invalidate() {}
    func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        guard lock.withLock({ evaluated }) else { throw .notInteractive }
        return Data(domain.rawValue.utf8)
    }
}

@Suite struct KeychainMemoryStoreTests {
    let store = MemoryStore()
    var keychain: Keychain { Keychain(service: "com.example.tests", store: store) }

    @Test func stringDataAndCodableRoundTrips() throws {
        try keychain.set("s3cr3t", forKey: "password")
        #expect(try keychain.string(forKey: "password") == "s3cr3t")
        try keychain.set(Data([0, 1, 2, 0xFF]), forKey: "blob")
        #expect(try keychain.data(forKey: "blob") == Data([0, 1, 2, 0xFF]))
        let credentials = Credentials(user: "me", token: "t0k3n", expires: Date(timeIntervalSince1970: 1_800_000_000),
                                      scopes: ["read", "write"])
        try keychain.set(credentials, forKey: "login")
        #expect(try keychain.value(Credentials.self, forKey: "login") == credentials)
        let typed: Credentials? = try keychain.value(forKey: "login")
        #expect(typed == credentials)
        try keychain.set(42, forKey: "answer")
        #expect(try keychain.value(Int.self, forKey: "answer") == 42)
    }

    @Test func missingKeysReadAsNil() throws {
        #expect(try keychain.string(forKey: "nope") == nil)
        #expect(try keychain.data(forKey: "nope") == nil)
        #expect(try keychain.value(Credentials.self, forKey: "nope") == nil)
        #expect(try keychain.contains("nope") == false)
        #expect(try keychain.attributes(forKey: "nope") == nil)
        try keychain.remove("nope")  // not an error
    }

    @Test func unicodeKeysAndValuesAndEmptyValues() throws {
        try keychain.set("비밀번호 🔑 pässwörd", forKey: "키 🗝️ ключ")
        #expect(try keychain.string(forKey: "키 🗝️ ключ") == "비밀번호 🔑 pässwörd")
        try keychain.set("", forKey: "empty")
        #expect(try keychain.string(forKey: "empty") == "")
        try keychain.set(Data(), forKey: "empty-data")
        #expect(try keychain.data(forKey: "empty-data") == Data())
        try keychain.set("v", forKey: "")
        #expect(try keychain.string(forKey: "") == "v")
        #expect(try keychain.allKeys() == ["", "empty", "empty-data", "키 🗝️ ключ"].sorted())
    }

    @Test func oneMebibyteValue() throws {
        var generator = SystemRandomNumberGenerator()
        let big = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try keychain.set(big, forKey: "big")
        #expect(try keychain.data(forKey: "big") == big)
    }

    @Test func updateInPlaceKeepsTheCreationDate() throws {
        try keychain.label("First").comment("c1").set("one", forKey: "k")
        let before = try #require(try keychain.attributes(forKey: "k"))
        try keychain.set("two", forKey: "k")
        let after = try #require(try keychain.attributes(forKey: "k"))
        #expect(try keychain.string(forKey: "k") == "two")
        #expect(after.creationDate == before.creationDate)
        #expect(try #require(after.modificationDate) > #require(before.modificationDate))
        #expect(after.label == "First", "an update without a label keeps the old one")
        #expect(after.comment == "c1")
        try keychain.label("Second").set("three", forKey: "k")
        #expect(try keychain.attributes(forKey: "k")?.label == "Second")
        #expect(try keychain.allKeys() == ["k"], "still one item")
    }

    @Test func perCallOptionsAreStored() throws {
        try keychain.accessibility(.afterFirstUnlockThisDeviceOnly).label("L").comment("C").itemDescription("D")
            .set("v", forKey: "k")
        let info = try #require(try keychain.attributes(forKey: "k"))
        #expect(info.key == "k")
        #expect(info.service == "com.example.tests")
        #expect(info.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(info.label == "L" && info.comment == "C" && info.itemDescription == "D")
        #expect(info.synchronizable == false)
        // Changing only the accessibility later is an in-place update too.
        try keychain.accessibility(.whenUnlocked).set("v2", forKey: "k")
        #expect(try keychain.attributes(forKey: "k")?.accessibility == .whenUnlocked)
    }

    @Test func synchronizableItemsAreDistinct() throws {
        try keychain.set("local", forKey: "k")
        try keychain.synchronizable(true).set("synced", forKey: "k")
        #expect(try keychain.string(forKey: "k") == "local")
        #expect(try keychain.synchronizable(true).string(forKey: "k") == "synced")
        #expect(try keychain.synchronizable(true).attributes(forKey: "k")?.synchronizable == true)
    }

    @Test func servicesAndAccessGroupsAreSeparate() throws {
        let other = Keychain(service: "com.example.other", store: store)
        try keychain.set("a", forKey: "k")
        try other.set("b", forKey: "k")
        #expect(try keychain.string(forKey: "k") == "a")
        #expect(try other.string(forKey: "k") == "b")
        let grouped = Keychain(service: "com.example.tests", accessGroup: "team.shared", store: store)
        try grouped.set("g", forKey: "k2")
        #expect(try grouped.string(forKey: "k2") == "g")
        #expect(try grouped.string(forKey: "k") == nil, "the group filter excludes items of no group")
        #expect(try keychain.string(forKey: "k2") == "g", "no group filter: any group matches, as Apple")
        try keychain.removeAll()
        #expect(try keychain.allKeys().isEmpty)
        #expect(try other.allKeys() == ["k"], "removeAll stays within the service")
    }

    @Test func removeContainsAndAllKeys() throws {
        try keychain.set("1", forKey: "a")
        try keychain.set("2", forKey: "b")
        #expect(try keychain.contains("a"))
        #expect(try keychain.allKeys() == ["a", "b"])
        #expect(try keychain.allItems().count == 2)
        try keychain.remove("a")
        #expect(try keychain.contains("a") == false)
        #expect(try keychain.allKeys() == ["b"])
    }

    @Test func subscripts() {
        let keychain = self.keychain
        keychain["token"] = "abc"
        #expect(keychain["token"] == "abc")
        #expect(keychain[string: "token"] == "abc")
        keychain[data: "raw"] = Data([9, 8])
        #expect(keychain[data: "raw"] == Data([9, 8]))
        keychain["token"] = nil
        #expect(keychain["token"] == nil)
        #expect(keychain["never"] == nil)
    }

    @Test func invalidDataIsReported() throws {
        try keychain.set(Data([0xFF, 0xFE, 0xC0]), forKey: "binary")
        #expect(throws: KeychainError.invalidData) { try keychain.string(forKey: "binary") }
        try keychain.set("not json", forKey: "text")
        #expect(throws: KeychainError.invalidData) { try keychain.value(Credentials.self, forKey: "text") }
    }

    @Test func lockedStoreMapsToInteractionNotAllowed() throws {
        try keychain.set("v", forKey: "k")
        try keychain.accessibility(.afterFirstUnlock).set("w", forKey: "after")
        store.lock()
        #expect(throws: KeychainError.interactionNotAllowed) { try keychain.string(forKey: "k") }
        #expect(throws: KeychainError.interactionNotAllowed) { try keychain.set("x", forKey: "k") }
        #expect(try keychain.string(forKey: "after") == "w", "afterFirstUnlock items stay readable")
        store.unlock()
        #expect(try keychain.string(forKey: "k") == "v")
    }

    @Test func internetPasswords() throws {
        let web = Keychain(server: "example.com", protocol: .https, authenticationType: .htmlForm, store: store)
        try web.set("hunter2", forKey: "alice")
        #expect(try web.string(forKey: "alice") == "hunter2")
        let info = try #require(try web.attributes(forKey: "alice"))
        #expect(info.service == "example.com")
        #expect(info.attributes.internetProtocol == .https)
        let otherServer = Keychain(server: "example.org", store: store)
        #expect(try otherServer.string(forKey: "alice") == nil)
        #expect(try keychain.string(forKey: "alice") == nil, "generic passwords are another class")
    }

    @Test func errorsMapStatusesAndHaveTexts() {
        #expect(KeychainError(status: .duplicateItem) == .duplicateEntry)
        #expect(KeychainError(status: .itemNotFound) == .itemNotFound)
        #expect(KeychainError(status: .interactionNotAllowed) == .interactionNotAllowed)
        #expect(KeychainError(status: .authFailed) == .authenticationFailed)
        #expect(KeychainError(status: .userCanceled) == .userCanceled)
        #expect(KeychainError(status: .decode) == .invalidData)
        #expect(KeychainError(status: .param) == .unexpectedStatus(-50))
        #expect(KeychainError.duplicateEntry.status == -25299)
        #expect(KeychainError.itemNotFound.status == -25300)
        #expect(KeychainError.interactionNotAllowed.status == -25308)
        #expect(KeychainError.authenticationFailed.status == -25293)
        #expect(KeychainError.userCanceled.status == -128)
        let all: [KeychainError] = [.duplicateEntry, .itemNotFound, .invalidData, .interactionNotAllowed,
                                    .authenticationFailed, .userCanceled, .unexpectedStatus(-50)]
        for error in all { #expect(error.errorDescription?.isEmpty == false) }
        #expect(KeychainError.unexpectedStatus(-50).errorDescription?.contains("errSecParam") == true)
    }
}

@Suite struct KeychainAsyncTests {
    let store = MemoryStore()

    @Test func asyncVariantsRoundTrip() async throws {
        let keychain = Keychain(service: "async", store: store)
        try await keychain.set("value", forKey: "k")
        #expect(try await keychain.string(forKey: "k") == "value")
        let credentials = Credentials(user: "u", token: "t", expires: Date(timeIntervalSince1970: 0), scopes: [])
        try await keychain.set(credentials, forKey: "c")
        #expect(try await keychain.value(Credentials.self, forKey: "c") == credentials)
        #expect(try await keychain.contains("k"))
        #expect(try await keychain.allKeys() == ["c", "k"])
        #expect(try await keychain.attributes(forKey: "k")?.key == "k")
        try await keychain.remove("k")
        #expect(try await keychain.data(forKey: "k") == nil)
        try await keychain.removeAll()
        #expect(try await keychain.allItems().isEmpty)
    }

    @MainActor @Test func asyncCallsRunOffTheMainActor() async throws {
        // Called from the main actor, the blocking store calls must run on another thread.
        let recorder = ThreadRecordingStore(base: store)
        let keychain = Keychain(service: "async", store: recorder)
        try await keychain.set("v", forKey: "k")
        #expect(try await keychain.string(forKey: "k") == "v")
        #expect(recorder.calls > 0)
        #expect(recorder.sawOtherThread == false, "every store call ran on the keychain's own queue")
    }

    @Test func accessControlledItemsEvaluateTheContextOnce() async throws {
        let context = ScriptedContext()
        let keychain = Keychain(service: "gated", store: store)
            .accessibility(.whenUnlockedThisDeviceOnly, accessControl: .biometryCurrentSet)
            .authenticationContext(context)
            .authenticationPrompt("Unlock your token")
        try await keychain.set("top secret", forKey: "token")
        #expect(context.evaluationCount == 1)
        #expect(try await keychain.string(forKey: "token") == "top secret")
        // Without any context, the synchronous read cannot prompt.
        let plain = Keychain(service: "gated", store: store)
        await #expect(throws: KeychainError.interactionNotAllowed) { try await plain.string(forKey: "token") }
        #expect(try await plain.contains("token"), "contains never needs authentication")
    }

    @Test func canceledAuthenticationMapsToUserCanceled() async throws {
        let good = ScriptedContext()
        let keychain = Keychain(service: "gated2", store: store).accessibility(.whenUnlocked, accessControl: .userPresence)
        try await keychain.authenticationContext(good).set("x", forKey: "k")
        let canceling = ScriptedContext(outcome: .userCancel)
        await #expect(throws: KeychainError.userCanceled) {
            try await keychain.authenticationContext(canceling).string(forKey: "k")
        }
        let failing = ScriptedContext(outcome: .authenticationFailed)
        await #expect(throws: KeychainError.authenticationFailed) {
            try await keychain.authenticationContext(failing).string(forKey: "k")
        }
    }
}

/// Passes calls to another store and records whether any ran outside the keychain's queue.
final class ThreadRecordingStore: ItemStore {
    private let state = Locked((calls: 0, other: false))
    let base: any ItemStore
    init(base: any ItemStore) { self.base = base }
    var calls: Int { state.withLock { $0.calls } }
    var sawOtherThread: Bool { state.withLock { $0.other } }
    private func record() {
        let onQueue = KeychainExecutor.isCurrent
        state.withLock { $0.calls += 1; $0.other = $0.other || !onQueue }
    }
    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        record()
        try base.add(item, authenticationContext: authenticationContext)
    }
    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        record()
        return try base.copyMatching(query)
    }
    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        record()
        try base.update(query, with: changes)
    }
    func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        record()
        try base.delete(query)
    }
}
