import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// Terminal input and output of the vault app: line prompts, hidden password entry, messages.
struct VaultConsole: Sendable {
    /// True when stdin is a terminal (interactive use).
    var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A message about the app itself (goes to stderr so `show` output stays clean on stdout).
    func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A prompt (on stderr, like the password prompts, so stdout carries only note data).
    func prompt(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// One line from stdin; `nil` at the end of input.
    func readLine(prompt text: String? = nil) -> String? {
        if let text { prompt(text) }
        return try? TerminalInput.readLine(fd: STDIN_FILENO)
    }

    /// A secret line: hidden on a terminal. `preferTerminal` reads from /dev/tty when stdin carries data
    /// (e.g. a note body piped into `add`).
    func readSecret(prompt text: String, preferTerminal: Bool = false) -> String? {
        if preferTerminal, !isInteractive {
            let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
            if tty >= 0 {
                defer { close(tty) }
                return try? TerminalInput.readSecret(prompt: text, fd: tty)
            }
        }
        if !isInteractive { FileHandle.standardError.write(Data(text.utf8)) }
        let secret = try? TerminalInput.readSecret(prompt: text, fd: STDIN_FILENO)
        if !isInteractive { FileHandle.standardError.write(Data("\n".utf8)) }
        return secret
    }

    /// Everything left on stdin (a note body), without one trailing newline.
    func readAll() -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Lines until a line with a single "." (or the end of input).
    func readBody() -> String {
        var lines: [String] = []
        while let line = readLine(), line != "." { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    func confirm(_ question: String) -> Bool {
        guard let answer = readLine(prompt: question + " [y/N] ") else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// A flag set from signal handlers and timers and read by the main loop.
final class VaultFlag: Sendable {
    private let value = Locked(false)
    func raise() { value.withLock { $0 = true } }
    /// Returns whether the flag was set, and clears it.
    func take() -> Bool { value.withLock { let was = $0; $0 = false; return was } }
}
