import Foundation
import LatchkeyAuth
import LatchkeySupport
import LocalAuthentication
import Security
import XCTest

/// Three behaviours of Apple's keychain that other libraries' iOS test suites assert (KeychainAccess's
/// testSetAttributes: "Fix test for iOS 11.3 change"), written as their client code reads them.
final class ItemDefaultsTests: XCTestCase {
    final class CountingPasscode: PasscodeProvider, Sendable {
        private let count = Locked(0)
        var asked: Int { count.withLock { $0 } }
        func passcode(for prompt: AuthenticationPrompt) async -> Passcode? {
            count.withLock { $0 += 1 }
            return Passcode("1234")
        }
    }

    override func setUp() { TestEnvironment.useMemoryKeychain() }

    private func attributes(_ query: [String: Any]) -> [String: Any]? {
        var q = query
        q[kSecReturnAttributes as String] = true
        q[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        guard SecItemCopyMatching(q as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? [String: Any]
    }

    /// An internet password added without an access control reads back with one (iOS 11.3 and later): its
    /// accessibility, no constraints; a generic password too. Its unset path reads back as "".
    func testItemWithoutAccessControlReadsBackWithOne() throws {
        let inet: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                                   kSecAttrProtocol as String: kSecAttrProtocolHTTPS, kSecAttrPort as String: 443,
                                   kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
                                   kSecAttrAccount as String: "kishikawakatsumi"]
        var add = inet
        add[kSecValueData as String] = Data("password1234".utf8)
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let found = try XCTUnwrap(attributes(inet))
        XCTAssertNotNil(found[kSecAttrAccessControl as String] as? SecAccessControl)
        let expected = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil)
        XCTAssertEqual(found[kSecAttrAccessControl as String] as? SecAccessControl, expected)
        XCTAssertEqual(found[kSecAttrPath as String] as? String, "")
        XCTAssertEqual(found[kSecAttrAccessible as String] as? String, kSecAttrAccessibleAfterFirstUnlock as String)

        let genp: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Twitter",
                                   kSecAttrAccount as String: "kishikawakatsumi"]
        var addGeneric = genp
        addGeneric[kSecValueData as String] = Data("password1234".utf8)
        XCTAssertEqual(SecItemAdd(addGeneric as CFDictionary, nil), errSecSuccess)
        XCTAssertNotNil(attributes(genp)?[kSecAttrAccessControl as String] as? SecAccessControl)
        // A path that was given reads back as given.
        var withPath = inet
        withPath[kSecAttrAccount as String] = "other"
        withPath[kSecAttrPath as String] = "/api/login/"
        var addWithPath = withPath
        addWithPath[kSecValueData as String] = Data("x".utf8)
        XCTAssertEqual(SecItemAdd(addWithPath as CFDictionary, nil), errSecSuccess)
        XCTAssertEqual(attributes(withPath)?[kSecAttrPath as String] as? String, "/api/login/")
    }

    /// Adding a `.devicePasscode` item asks nothing — not on the terminal, not through the context's prompt (Apple
    /// never prompts at add time); reading it asks for the passcode.
    func testDevicePasscodeItemIsAddedWithoutAPrompt() throws {
        let simulator = try TestEnvironment.useSimulator()
        let prompts = CountingPasscode()
        LatchkeyLocalAuthenticationConfiguration.makeContext = { simulator.makeContext(passcodeProvider: prompts) }
        let access = try XCTUnwrap(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                                   .devicePasscode, nil))
        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "passcode",
                                   kSecAttrAccount as String: "a"]
        var add = item
        add[kSecValueData as String] = Data("sealed".utf8)
        add[kSecAttrAccessControl as String] = access
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let quiet = LAContext()
        quiet.interactionNotAllowed = true
        var second = add
        second[kSecAttrAccount as String] = "b"
        second[kSecUseAuthenticationContext as String] = quiet
        XCTAssertEqual(SecItemAdd(second as CFDictionary, nil), errSecSuccess)
        XCTAssertEqual(prompts.asked, 0)

        var read = item
        read[kSecReturnData as String] = true
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(read as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data("sealed".utf8))
        XCTAssertEqual(prompts.asked, 1)
    }
}
