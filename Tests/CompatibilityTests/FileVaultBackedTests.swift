import Foundation
import LatchkeyKeychain
import LocalAuthentication
import Security
import XCTest

/// The same client code against a real vault file (the Linux default store kind).
final class FileVaultBackedTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("compat-vault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let vault = try FileVault(url: directory.appendingPathComponent("test.vault"), keyProvider: InMemoryVaultKeyProvider(),
                                  kdf: .testing)
        try vault.unlock()
        LatchkeySecurityConfiguration.store = vault
        try TestEnvironment.useSimulator()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testKeychainManagerOnVault() throws {
        let keychain = KeychainManager(service: "vault")
        try keychain.save("on disk", account: "a")
        try keychain.save("again", account: "a")
        XCTAssertEqual(try keychain.readString(account: "a"), "again")
        XCTAssertEqual(keychain.allAccounts(), ["a"])
        try keychain.delete(account: "a")
        XCTAssertFalse(keychain.exists(account: "a"))
    }

    func testBiometryGatedOnVault() async throws {
        let context = LAContext()
        _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Save")
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryAny, nil)!
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "vault-bio",
            kSecAttrAccessControl as String: access,
            kSecValueData as String: Data("sealed".utf8),
            kSecUseAuthenticationContext as String: context,
        ]
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let read: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "vault-bio",
            kSecReturnData as String: true,
            kSecUseAuthenticationContext as String: context,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(read as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data("sealed".utf8))
    }

    func testNSErrorCastsToLAError() throws {
        let simulator = try TestEnvironment.useSimulator()
        try simulator.unenroll()
        var error: NSError?
        XCTAssertFalse(LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        // As on Apple platforms, the NSError casts back to LAError; `LAError(_nsError:)` and the
        // `case LAError.x:` pattern work too.
        XCTAssertEqual(((error! as Error) as? LAError)?.code, .biometryNotEnrolled)
        XCTAssertEqual((error as? LAError)?.code, .biometryNotEnrolled)
        let laError = try XCTUnwrap(LAError(_nsError: error!))
        XCTAssertEqual(laError.code, .biometryNotEnrolled)
        switch error! as Error {
        case LAError.biometryNotEnrolled: break
        default: XCTFail("pattern did not match")
        }
    }
}
