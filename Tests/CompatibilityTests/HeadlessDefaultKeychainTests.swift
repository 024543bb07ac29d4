import Foundation
import LatchkeyKeychain
import Security
import XCTest

/// The tutorial suite (KeychainManagerTests) run the way a user's CI runs it: a child process with no
/// D-Bus session, no keyring, a fresh HOME and XDG_DATA_HOME, and no Latchkey configuration at all.
final class HeadlessDefaultKeychainTests: XCTestCase {
    func testTutorialSuitePassesWithNoKeyringAndNoConfiguration() throws {
        if HeadlessChild.isActive { throw XCTSkip("parent only") }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("compat-headless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCHKEY_") }
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_DATA_HOME"] { environment[name] = nil }
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment[HeadlessChild.variable] = "1"
        environment["LATCHKEY_LOG"] = "notice"

        let result = try HeadlessChild.run(["CompatibilityTests.KeychainManagerTests"], environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        let executed = result.output.components(separatedBy: "\n").last { $0.contains("Executed") && $0.contains("tests") } ?? ""
        XCTAssertTrue(executed.contains("with 0 failures"), result.output)
        XCTAssertFalse(executed.contains("Executed 0 tests"), result.output)
        XCTAssertTrue(result.output.contains("default store: file vault"), "the choice is logged once: \(result.output)")

        let directory = home.appendingPathComponent("data/latchkey")
        let vault = directory.appendingPathComponent("default.vault")
        let deviceKey = directory.appendingPathComponent("device.key")
        XCTAssertEqual(try permissions(deviceKey), 0o600)
        XCTAssertEqual(try permissions(directory), 0o700)
        XCTAssertEqual(try permissions(vault), 0o600)
        var bytes = try Data(contentsOf: vault)
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: vault.path + "-wal")) { bytes.append(wal) }
        for needle in ["s3cret", "com.example.tests", "alice"] {
            XCTAssertNil(bytes.range(of: Data(needle.utf8)), "the vault shows \(needle)")
        }
    }

    private func permissions(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

/// The child side: when `LATCHKEY_COMPAT_HEADLESS_CHILD=1`, KeychainManagerTests use the default keychain.
enum HeadlessChild {
    static let variable = "LATCHKEY_COMPAT_HEADLESS_CHILD"

    static var isActive: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    /// The default store the environment gives, emptied of passwords (what a suite's setUp does on a Mac).
    static func useDefaultKeychainEmptied() {
        LatchkeySecurityConfiguration.store = LatchkeySecurityConfiguration.makeDefaultStore()
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword] {
            _ = SecItemDelete([kSecClass as String: itemClass] as CFDictionary)
        }
    }

    /// Re-runs this test binary (XCTest) with `arguments`; output through a file, not a pipe.
    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("headless-\(UUID().uuidString).out")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else { throw POSIXError(.EIO) }
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        return (process.terminationStatus, (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "")
    }
}
