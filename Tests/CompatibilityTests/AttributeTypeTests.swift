import Foundation
import LatchkeyKeychain
import Security
import XCTest

/// Attributes keep the type they were added with, as on Apple platforms: an account or service given as
/// `Data` reads back as `Data` (SwiftKeychainWrapper's `allKeys()` relies on it), a `String` one as `String`,
/// and both spellings of the same bytes are one value for matching and for duplicates.
final class AttributeTypeTests: XCTestCase {
    var directory: URL?

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func useVault() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("compat-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        directory = dir
        let vault = try FileVault(url: dir.appendingPathComponent("test.vault"), keyProvider: InMemoryVaultKeyProvider(),
                                  kdf: .testing)
        try vault.unlock()
        LatchkeySecurityConfiguration.store = vault
    }

    private func add(service: Any, account: Any, value: String) -> OSStatus {
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecValueData as String: Data(value.utf8),
        ]
        return SecItemAdd(add as CFDictionary, nil)
    }

    private func allAttributes(service: String) -> (OSStatus, [[String: Any]]) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: kCFBooleanTrue!,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? [[String: Any]] ?? [])
    }

    private func checkDataAccountRoundTrips() {
        let account = Data("data-account".utf8)
        XCTAssertEqual(add(service: "types", account: account, value: "a"), errSecSuccess)
        XCTAssertEqual(add(service: "types", account: "string-account", value: "b"), errSecSuccess)
        let (status, items) = allAttributes(service: "types")
        XCTAssertEqual(status, errSecSuccess)
        XCTAssertEqual(items.count, 2)
        let accounts = items.map { $0[kSecAttrAccount as String] }
        XCTAssertEqual(accounts.compactMap { $0 as? Data }, [account])
        XCTAssertEqual(accounts.compactMap { $0 as? String }, ["string-account"])
        XCTAssertTrue(items.allSatisfy { $0[kSecAttrService as String] is String })
    }

    func testDataAccountReadsBackAsDataInMemory() {
        TestEnvironment.useMemoryKeychain()
        checkDataAccountRoundTrips()
    }

    func testDataAccountReadsBackAsDataInVault() throws {
        try useVault()
        checkDataAccountRoundTrips()
    }

    func testDataAndStringOfTheSameBytesAreOneAccount() throws {
        try useVault()
        XCTAssertEqual(add(service: "same", account: Data("alice".utf8), value: "1"), errSecSuccess)
        XCTAssertEqual(add(service: "same", account: "alice", value: "2"), errSecDuplicateItem)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: Data("same".utf8),
            kSecAttrAccount as String: "alice",
            kSecReturnData as String: true,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data("1".utf8))
    }

    func testUpdateKeepsTheNewType() {
        TestEnvironment.useMemoryKeychain()
        XCTAssertEqual(add(service: "update", account: "bob", value: "1"), errSecSuccess)
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "update"]
        let change: [String: Any] = [kSecAttrAccount as String: Data("bob".utf8), kSecAttrLabel as String: Data([0xff, 0x00])]
        XCTAssertEqual(SecItemUpdate(query as CFDictionary, change as CFDictionary), errSecSuccess)
        let (status, items) = allAttributes(service: "update")
        XCTAssertEqual(status, errSecSuccess)
        XCTAssertEqual(items.first?[kSecAttrAccount as String] as? Data, Data("bob".utf8))
        XCTAssertEqual(items.first?[kSecAttrLabel as String] as? Data, Data([0xff, 0x00]))
    }

    func testAccessGroupGivenAsDataIsAString() {
        TestEnvironment.useMemoryKeychain()
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "group",
            kSecAttrAccessGroup as String: Data("team.group".utf8),
            kSecValueData as String: Data("v".utf8),
        ]
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let (_, items) = allAttributes(service: "group")
        XCTAssertEqual(items.first?[kSecAttrAccessGroup as String] as? String, "team.group")
    }
}

/// CFString constants behave as Apple's when used as `AnyHashable` keys and dictionary values.
final class CFStringHashingTests: XCTestCase {
    func testConstantFindsStringKeyedEntry() {
        let attributes: [AnyHashable: Any] = ["acct": Data("k".utf8)]
        XCTAssertEqual(attributes[kSecAttrAccount] as? Data, Data("k".utf8))
        XCTAssertEqual(AnyHashable(kSecClassGenericPassword), AnyHashable("genp"))
    }

    func testDictionaryWithConstantValuesEqualsItself() {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"]
        XCTAssertTrue(NSDictionary(dictionary: query).isEqual(to: query))
    }

    func testDataAccountFoundThroughConstantKey() {
        TestEnvironment.useMemoryKeychain()
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "keys",
            kSecAttrAccount as String: Data("first".utf8),
            kSecValueData as String: Data("v".utf8),
        ]
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "keys",
            kSecReturnAttributes as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: AnyObject?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        let items = result as? [[AnyHashable: Any]] ?? []
        XCTAssertEqual(items.compactMap { $0[kSecAttrAccount] as? Data }, [Data("first".utf8)])
    }
}
