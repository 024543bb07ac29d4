import Foundation
import Security
import XCTest

/// Code that keeps a persistent reference (for example to hand a VPN password to NetworkExtension, or to
/// remember "which item" across launches) later reads and deletes the item with only that reference.
final class PersistentReferenceTests: XCTestCase {
    override func setUp() {
        super.setUp()
        TestEnvironment.useMemoryKeychain()
    }

    func savePassword(_ password: String, account: String) -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "vpn.example",
            kSecAttrAccount as String: account,
            kSecValueData as String: Data(password.utf8),
            kSecReturnPersistentRef as String: true,
        ]
        var ref: CFTypeRef?
        guard SecItemAdd(query as CFDictionary, &ref) == errSecSuccess else { return nil }
        return ref as? Data
    }

    func testReadUpdateDeleteByReferenceAlone() throws {
        let ref = try XCTUnwrap(savePassword("hunter2", account: "vpn-user"))
        var result: CFTypeRef?
        let read: [String: Any] = [kSecValuePersistentRef as String: ref, kSecReturnData as String: true]
        XCTAssertEqual(SecItemCopyMatching(read as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data("hunter2".utf8))

        let change: [String: Any] = [kSecValueData as String: Data("correct horse".utf8)]
        XCTAssertEqual(SecItemUpdate([kSecValuePersistentRef as String: ref] as CFDictionary, change as CFDictionary),
                       errSecSuccess)
        XCTAssertEqual(SecItemCopyMatching(read as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data("correct horse".utf8))

        XCTAssertEqual(SecItemDelete([kSecValuePersistentRef: ref] as CFDictionary), errSecSuccess)
        XCTAssertEqual(SecItemCopyMatching(read as CFDictionary, &result), errSecItemNotFound)
        XCTAssertNil(result)
    }

    func testUnknownReferenceAndMissingClass() {
        let bogus = Data(repeating: 7, count: 24)
        XCTAssertEqual(SecItemDelete([kSecValuePersistentRef as String: bogus] as CFDictionary), errSecItemNotFound)
        // Without a persistent reference a class is still required, as on Apple platforms.
        XCTAssertEqual(SecItemCopyMatching([kSecAttrService as String: "vpn.example"] as CFDictionary, nil), errSecParam)
    }
}
