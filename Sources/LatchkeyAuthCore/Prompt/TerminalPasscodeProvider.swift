import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks for the passcode on the terminal: the prompt goes to stderr, the answer is read from stdin
/// with echo turned off (termios) when stdin is a terminal, or as one line otherwise (scripts, pipes).
/// End of input is a Cancel. The bytes never pass through a `String`.
public struct TerminalPasscodeProvider: PasscodeProvider {
    private let input: Int32
    private let output: Int32

    /// Reads `input` (stdin) and writes prompts to `output` (stderr).
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDERR_FILENO) {
        self.input = input
        self.output = output
    }

    /// Prints the reason and PAM's message (or "Passcode: "), then reads one line.
    public func passcode(for prompt: AuthenticationPrompt) async -> Passcode? {
        var text = prompt.reason.isEmpty ? "" : prompt.reason + "\n"
        switch prompt.kind {
        case .passcode: text += prompt.message ?? "Passcode: "
        case .applicationPassword: text += prompt.message ?? "Application password: "
        case .biometry: text += prompt.message ?? "Answer: "
        }
        writeAll(text)
        let terminal = isatty(input) == 1
        var saved = termios()
        var hidden = false
        if terminal, !prompt.echo, tcgetattr(input, &saved) == 0 {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            hidden = tcsetattr(input, TCSAFLUSH, &quiet) == 0
        }
        defer { if hidden { _ = tcsetattr(input, TCSAFLUSH, &saved) } }
        var bytes: [UInt8] = []
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var byte: UInt8 = 0
        var sawNewline = false
        while bytes.count < 4096 {
            let count = read(input, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { break }
            if byte == UInt8(ascii: "\n") {
                sawNewline = true
                break
            }
            bytes.append(byte)
        }
        byte = 0
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard sawNewline || !bytes.isEmpty else { return nil }
        return Passcode(bytes: bytes)
    }

    /// Prints PAM's text to the terminal (stderr).
    public func display(_ message: String, isError: Bool) {
        writeAll((isError ? "error: " : "") + message + "\n")
    }

    private func writeAll(_ text: String) {
        let data = Array(text.utf8)
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(output, base + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
