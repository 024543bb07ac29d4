import Foundation
import LatchkeyKeychain
import Security
import XCTest

/// The default store (FileVault + OS key provider); needs the Secret Service from scripts/with-services.sh.
final class DefaultStoreTests: XCTestCase {
    func testDefaultStoreOpensVaultAtConfiguredPath() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["LATCHKEY_TEST_SECRET_SERVICE"] != nil else {
            if env["LATCHKEY_REQUIRE_SERVICES"] == "1" { XCTFail("Secret Service required") }
            throw XCTSkip("no Secret Service (run under scripts/with-services.sh)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("compat-default-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var custom = env
        custom["LATCHKEY_KEYCHAIN_PATH"] = dir.appendingPathComponent("k.vault").path
        custom["LATCHKEY_APPLICATION_IDENTIFIER"] = "TEAM123.com.example.cli"
        let store = LatchkeySecurityConfiguration.makeDefaultStore(environment: custom)
        XCTAssertTrue(store is FileVault)
        LatchkeySecurityConfiguration.store = store
        let keychain = KeychainManager(service: "default-store")
        try keychain.save("persisted", account: "a")
        XCTAssertEqual(try keychain.readString(account: "a"), "persisted")
        XCTAssertEqual(keychain.attributes(account: "a")?[kSecAttrAccessGroup as String] as? String, "TEAM123.com.example.cli")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("k.vault").path))
    }
}
