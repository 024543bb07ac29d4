import Foundation
import LatchkeyTestSupport
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Latchkey

/// `latchkey vault` driven end to end through a pseudo-terminal (tmux): create the account, add a note,
/// lock, fail a biometric match, unlock with the password, read the note back.
@Suite(.offCooperativePool) struct VaultTerminalTests {
    @Test func interactiveSessionThroughAPseudoTerminal() throws {
        guard let binary = VaultHarness.latchkeyBinary, TmuxSession.isAvailable else {
            if ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1" {
                Issue.record("needs the latchkey binary and tmux")
            }
            return
        }
        let vault = try VaultHarness(binary: binary)
        defer { vault.cleanUp() }
        let terminal = try TmuxSession(command: [binary, "vault", "shell"], environment: vault.environment,
                                       directory: vault.directory)
        defer { terminal.kill() }
        let password = "correct horse battery"

        // First run: create the account; accept Touch ID login (the simulated finger matches).
        try terminal.waitFor("User name: ")
        try terminal.type("mina")
        try terminal.waitFor("Password (at least 8 characters): ")
        try terminal.type(password)
        try terminal.waitFor("Repeat the password: ")
        try terminal.type(password)
        try terminal.waitFor("Use Touch ID to unlock the vault next time? [y/N]")
        try vault.simulator.enqueue(.match)
        try terminal.type("y")
        try terminal.waitFor("Touch ID login is on.")
        try terminal.waitFor("vault> ")

        // Add a note.
        try terminal.type("add Groceries")
        try terminal.waitFor("end with a line containing a single")
        try terminal.type("milk")
        try terminal.type("eggs")
        try terminal.type(".")
        try terminal.waitFor("added “Groceries”")

        // Lock; the next unlock sees a finger that does not match, then the password.
        try vault.simulator.enqueue(.noMatch)
        try terminal.type("lock")
        try terminal.waitFor("Vault locked.")
        try terminal.waitFor("Touch ID did not recognise you. Enter your password.")
        try terminal.waitFor("Password for mina: ")
        try terminal.type(password)
        try terminal.waitFor("Unlocked with your password.")

        // Read the note back.
        try terminal.waitFor("vault> ", occurrences: 3)
        try terminal.type("show Groceries")
        let screen = try terminal.waitFor("eggs")
        #expect(screen.contains("milk\neggs"))
        // Hidden input: the password was never echoed.
        #expect(!screen.contains(password))

        // Status line shows the biometry type and lockout state.
        try terminal.type("status")
        let statusScreen = try terminal.waitFor("biometry state:")
        #expect(statusScreen.contains("biometry: Touch ID"))

        // Ctrl-Z locks (then suspends); after SIGCONT the next command needs Touch ID again.
        let pid = try #require(Int32(try terminal.tmux(["display-message", "-p", "-t", "latchkey", "#{pane_pid}"])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)))
        try terminal.tmux(["send-keys", "-t", "latchkey", "C-z"])
        try terminal.waitFor("[vault locked]")
        try vault.simulator.enqueue(.match)
        kill(pid, SIGCONT)
        try terminal.type("list")
        try terminal.waitFor("Unlocked with Touch ID.")
        try terminal.waitFor("Groceries", occurrences: 4)

        // SIGHUP (the terminal went away) locks and quits: a new process finds the session ended.
        kill(pid, SIGHUP)
        _ = try terminal.waitUntilExited()
        // Killed by the default action the session would still be open; the handler ended it.
        let status = try vault.vault(["status"]).output
        #expect(status.contains("session: locked"))
    }
}
