import Foundation
import Testing
import Latchkey

/// `latchkey vault` driven as a script (pipes, exit codes).
@Suite struct VaultScriptTests {
    @Test func scriptedFlowWithExitCodes() throws {
        guard let binary = VaultHarness.latchkeyBinary else {
            if ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1" { Issue.record("latchkey not built") }
            return
        }
        let vault = try VaultHarness(binary: binary)
        defer { vault.cleanUp() }
        let password = "correct horse battery"

        #expect(try vault.vault(["list"]).status == 77)  // no account yet
        let setup = try vault.vault(["setup"], input: "mina\n\(password)\n\(password)\n")
        #expect(setup.status == 0, "\(setup.output)")
        #expect(try vault.vault(["add", "--title", "Groceries"], input: "milk\neggs\n").status == 0)
        #expect(try vault.vault(["add", "--title", "Groceries"], input: "again").status == 45)
        #expect(try vault.vault(["list"]).output.contains("Groceries"))
        #expect(try vault.vault(["show", "Nope"]).status == 44)
        #expect(try vault.vault(["lock"]).status == 0)

        // Locked, no biometric login yet: the password is asked (wrong, then right).
        let wrong = try vault.vault(["show", "Groceries"], input: "wrong password\n")
        #expect(wrong.status == 77)
        #expect(!wrong.output.contains("milk"))
        let shown = try vault.vault(["show", "Groceries"], input: "\(password)\n")
        #expect(shown.status == 0)
        #expect(shown.output.contains("milk\neggs"))
        #expect(!shown.output.contains(password))

        // Biometric login on; a non-matching finger falls back to the password, a matching one unlocks.
        try vault.simulator.enqueue(.match)
        #expect(try vault.vault(["biometrics", "on"], input: "\(password)\n").status == 0)
        #expect(try vault.vault(["lock"]).status == 0)
        try vault.simulator.enqueue(.noMatch)
        let fallback = try vault.vault(["edit", "Groceries"], input: "\(password)\nbread\n")
        #expect(fallback.output.contains("did not recognise you"))
        #expect(try vault.vault(["lock"]).status == 0)
        try vault.simulator.enqueue(.match)
        let matched = try vault.vault(["show", "Groceries"])
        #expect(matched.output.contains("Unlocked with Touch ID"))
        #expect(matched.output.contains("bread"))

        // Status shows the biometry type and the lockout state.
        let status = try vault.vault(["status"]).output
        #expect(status.contains("biometry: Touch ID"))
        #expect(status.contains("biometry state: available"))

        // Five non-matching fingers lock Touch ID out; the password still unlocks; status reports the lockout.
        for _ in 0..<5 {
            #expect(try vault.vault(["lock"]).status == 0)
            try vault.simulator.enqueue(.noMatch)
            #expect(try vault.vault(["unlock"], input: "\(password)\n").status == 0)
        }
        #expect(try vault.vault(["lock"]).status == 0)
        let lockedOut = try vault.vault(["unlock"], input: "\(password)\n")
        #expect(lockedOut.output.contains("Touch ID is locked out"))
        #expect(lockedOut.status == 0)
        #expect(try vault.vault(["status"]).output.contains("biometry state: locked out"))

        #expect(try vault.vault(["delete", "Groceries"]).status == 0)
        #expect(try vault.vault(["delete", "Groceries"]).status == 44)

        // The vault directory never holds the note or the password in plain text.
        for file in try FileManager.default.contentsOfDirectory(atPath: vault.directory.path) {
            let data = FileManager.default.contents(atPath: vault.directory.appendingPathComponent(file).path) ?? Data()
            #expect(data.range(of: Data(password.utf8)) == nil, "\(file)")
            #expect(data.range(of: Data("milk\neggs".utf8)) == nil, "\(file)")
        }
    }
}
