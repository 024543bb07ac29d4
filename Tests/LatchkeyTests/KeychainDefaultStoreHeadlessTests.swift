#if !LATCHKEY_APPLE_FRAMEWORKS  // Apple platforms' default store is the system keychain (AppleFrameworksTests)
import Foundation
import LatchkeyTestSupport
import Testing
@testable import Latchkey

/// When set, `keychainDefaultStoreChild` is the child side: it names the file for its report.
private let headlessReportVariable = "LATCHKEY_KIT_HEADLESS_CHILD_REPORT"

/// The child: `Keychain(service:)` with no store given, no configuration, no keyring.
@Test(.enabled(if: ProcessInfo.processInfo.environment[headlessReportVariable] != nil))
func keychainDefaultStoreChild() throws {
    let path = try #require(ProcessInfo.processInfo.environment[headlessReportVariable])
    let keychain = Keychain(service: "com.example.headless")
    try keychain.set("token-123", forKey: "session")
    let readBack = try keychain.string(forKey: "session")
    let description = try Keychain.defaultStoreDescription()
    let report = [readBack ?? "nil", description?.store.rawValue ?? "nil", description?.vaultURL?.path ?? "nil"]
    try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: path))
}

@Suite(.offCooperativePool) struct KeychainDefaultStoreHeadlessTests {
    @Test func keychainServiceWorksWithNoKeyringAndNoConfiguration() throws {
        let home = try ChildProcess.temporaryDirectory("kit-headless")
        defer { try? FileManager.default.removeItem(at: home) }
        let report = home.appendingPathComponent("report.json")
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCHKEY_") }
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] { environment[name] = nil }
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment[headlessReportVariable] = report.path
        let result = try ChildProcess.run(ChildProcess.testBinary, ChildProcess.filterArguments("keychainDefaultStoreChild"),
                                          environment: environment)
        try #require(result.status == 0, "child failed: \(result.output.suffix(2000))")
        let values = try JSONDecoder().decode([String].self, from: Data(contentsOf: report))
        let vault = home.appendingPathComponent("data/latchkey/default.vault").path
        #expect(values == ["token-123", "file", vault])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: vault))
        #expect(bytes.range(of: Data("token-123".utf8)) == nil)
        #expect(bytes.range(of: Data("com.example.headless".utf8)) == nil)
    }
}
#endif
