import Foundation
import Security
import XCTest

final class KeychainManagerTests: XCTestCase {
    var keychain: KeychainManager!

    override func setUp() {
        super.setUp()
        if HeadlessChild.isActive {
            // Run by HeadlessDefaultKeychainTests in a shell with no keyring and no configuration.
            HeadlessChild.useDefaultKeychainEmptied()
        } else {
            TestEnvironment.useMemoryKeychain()
        }
        keychain = KeychainManager(service: "com.example.tests")
    }

    func testSaveAndRead() throws {
        try keychain.save("s3cret", account: "alice")
        XCTAssertEqual(try keychain.readString(account: "alice"), "s3cret")
    }

    func testSaveTwiceUpdates() throws {
        try keychain.save("one", account: "alice")
        try keychain.save("two", account: "alice")
        XCTAssertEqual(try keychain.readString(account: "alice"), "two")
        XCTAssertEqual(keychain.allAccounts(), ["alice"])
    }

    func testDuplicateAddReturnsErrSecDuplicateItem() {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "dup",
            kSecAttrAccount as String: "a",
            kSecValueData as String: Data([1]),
        ]
        XCTAssertEqual(SecItemAdd(query as CFDictionary, nil), errSecSuccess)
        XCTAssertEqual(SecItemAdd(query as CFDictionary, nil), errSecDuplicateItem)
        XCTAssertEqual(errSecDuplicateItem, -25299)
    }

    func testReadMissingThrowsItemNotFound() {
        XCTAssertThrowsError(try keychain.read(account: "nobody")) { error in
            XCTAssertEqual(error as? KeychainError, .itemNotFound)
        }
    }

    func testUpdate() throws {
        try keychain.save("old", account: "bob")
        try keychain.update("new".data(using: .utf8)!, account: "bob")
        XCTAssertEqual(try keychain.readString(account: "bob"), "new")
        XCTAssertThrowsError(try keychain.update(Data(), account: "ghost"))
    }

    func testDeleteAndExists() throws {
        try keychain.save("x", account: "carol")
        XCTAssertTrue(keychain.exists(account: "carol"))
        try keychain.delete(account: "carol")
        XCTAssertFalse(keychain.exists(account: "carol"))
        XCTAssertNoThrow(try keychain.delete(account: "carol"))
    }

    func testReturnAttributesDictionary() throws {
        try keychain.save("pw", account: "dave")
        let attributes = try XCTUnwrap(keychain.attributes(account: "dave"))
        XCTAssertEqual(attributes[kSecAttrAccount as String] as? String, "dave")
        XCTAssertEqual(attributes[kSecAttrService as String] as? String, "com.example.tests")
        XCTAssertEqual(attributes[kSecValueData as String] as! Data, "pw".data(using: .utf8)!)
        XCTAssertEqual(attributes[kSecAttrAccessible as String] as? String, kSecAttrAccessibleAfterFirstUnlock as String)
        XCTAssertEqual(attributes[kSecClass as String] as? String, "genp")
    }

    func testMatchLimitAllListsEveryAccount() throws {
        for name in ["b", "a", "c"] { try keychain.save(name, account: name) }
        XCTAssertEqual(keychain.allAccounts(), ["a", "b", "c"])
        let other = KeychainManager(service: "other")
        try other.save("z", account: "z")
        XCTAssertEqual(keychain.allAccounts(), ["a", "b", "c"])
    }

    func testDeleteAllByClass() throws {
        try keychain.save("1", account: "one")
        XCTAssertEqual(keychain.saveInternetPassword("pw", account: "me", server: "example.com"), errSecSuccess)
        keychain.deleteAll()
        XCTAssertEqual(keychain.allAccounts(), [])
        XCTAssertThrowsError(try keychain.readInternetPassword(server: "example.com"))
    }

    func testCodableRoundTrip() throws {
        let credentials = Credentials(username: "erin", password: "hunter2")
        try keychain.save(credentials, account: "credentials")
        XCTAssertEqual(try keychain.read(account: "credentials", type: Credentials.self), credentials)
    }

    func testInternetPassword() throws {
        XCTAssertEqual(keychain.saveInternetPassword("pa55", account: "frank", server: "api.example.com"), errSecSuccess)
        XCTAssertEqual(keychain.saveInternetPassword("pa55", account: "frank", server: "api.example.com"), errSecDuplicateItem)
        let found = try keychain.readInternetPassword(server: "api.example.com")
        XCTAssertEqual(found.account, "frank")
        XCTAssertEqual(found.password, "pa55")
    }

    func testMalformedQueryIsErrSecParam() {
        let noClass: [String: Any] = [kSecAttrAccount as String: "x"]
        XCTAssertEqual(SecItemCopyMatching(noClass as CFDictionary, nil), errSecParam)
        let badValue: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: Date()]
        XCTAssertEqual(SecItemAdd(badValue as CFDictionary, nil), errSecParam)
    }

    func testConstantsCarryAppleRawValues() {
        XCTAssertEqual(kSecClass as String, "class")
        XCTAssertEqual(kSecClassGenericPassword as String, "genp")
        XCTAssertEqual(kSecAttrAccount as String, "acct")
        XCTAssertEqual(kSecAttrService as String, "svce")
        XCTAssertEqual(kSecValueData as String, "v_Data")
        XCTAssertEqual(kSecReturnData as String, "r_Data")
        XCTAssertEqual(kSecMatchLimit as String, "m_Limit")
        XCTAssertEqual(kSecMatchLimitOne as String, "m_LimitOne")
        XCTAssertEqual(kSecAttrAccessibleWhenUnlocked as String, "ak")
        XCTAssertEqual(kSecAttrSynchronizable as String, "sync")
        XCTAssertEqual(kSecAttrAccessGroup as String, "agrp")
        XCTAssertEqual(kSecUseAuthenticationContext as String, "u_AuthCtx")
        XCTAssertEqual(errSecItemNotFound, -25300)
        XCTAssertEqual(errSecInteractionNotAllowed, -25308)
        XCTAssertEqual(errSecMissingEntitlement, -34018)
    }

    func testAddReturnsDataWhenAsked() {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "ret",
            kSecAttrAccount as String: "a",
            kSecValueData as String: Data([9, 9]),
            kSecReturnData as String: true,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemAdd(query as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data([9, 9]))
    }

    func testSynchronizableAnyAndCaseInsensitiveAreAccepted() throws {
        try keychain.save("s", account: "sync")
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.example.tests",
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecMatchCaseInsensitive as String: kCFBooleanTrue!,
            kSecReturnData as String: kCFBooleanTrue!,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(String(data: result as! Data, encoding: .utf8), "s")
    }

    func testDatesAndAccessGroupInAttributes() throws {
        let store = MemoryStoreFactory.make(defaultAccessGroup: "ABCDE12345.com.example.app")
        _ = store
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "probe",
            kSecValueData as String: Data(),
            kSecReturnAttributes as String: true,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemAdd(add as CFDictionary, &result), errSecSuccess)
        let attributes = result as! [String: Any]
        let group = attributes[kSecAttrAccessGroup as String] as? String
        XCTAssertEqual(group?.components(separatedBy: ".").first, "ABCDE12345")
        XCTAssertNotNil(attributes[kSecAttrCreationDate as String] as? Date)
        XCTAssertNotNil(attributes[kSecAttrModificationDate as String] as? Date)
        XCTAssertEqual(attributes[kSecAttrSynchronizable as String] as? Bool, false)
    }

    func testPersistentReferenceRoundTrip() throws {
        try keychain.save("pr", account: "persist")
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "persist",
            kSecReturnPersistentRef as String: true,
        ]
        var ref: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &ref), errSecSuccess)
        let byRef: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecValuePersistentRef as String: ref as! Data,
            kSecReturnData as String: true,
        ]
        var data: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(byRef as CFDictionary, &data), errSecSuccess)
        XCTAssertEqual(data as? Data, "pr".data(using: .utf8))
    }

    func testAuthenticationUIFailAndAllDataArray() throws {
        try keychain.save("1", account: "x1")
        try keychain.save("2", account: "x2")
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.example.tests",
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        let all = result as! [Data]
        XCTAssertEqual(Set(all), Set(["1", "2"].map { $0.data(using: .utf8)! }))
    }

    func testAccountGivenAsDataLikeSwiftKeychainWrapper() {
        let key = "token".data(using: .utf8)!
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "wrapper",
            kSecAttrGeneric as String: key,
            kSecAttrAccount as String: key,
            kSecValueData as String: Data("v".utf8),
        ]
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), noErr)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "wrapper",
            kSecAttrGeneric as String: key,
            kSecAttrAccount as String: key,
            kSecMatchLimit as String: kSecMatchLimitOne,
            kSecReturnData as String: kCFBooleanTrue!,
        ]
        var result: AnyObject?
        let status = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0)) }
        XCTAssertEqual(status, noErr)
        XCTAssertEqual(result as? Data, Data("v".utf8))
    }
}
