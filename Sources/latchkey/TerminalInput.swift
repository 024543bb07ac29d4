import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading secrets typed by a person (echo off) or handed over by a script (one line on a pipe or a file
/// descriptor). Never echoes, never logs; the line buffer is zeroed after use.
enum TerminalInput {
    enum Failure: Error {
        case endOfInput
        case readFailed(Int32)
    }

    /// Reads one secret line. On a terminal, `prompt` goes to stderr and echo is switched off while typing;
    /// on a pipe or file (scripts), one line is read as is.
    static func readSecret(prompt: String, fd: Int32 = STDIN_FILENO) throws -> String {
        guard isatty(fd) == 1 else { return try readLine(fd: fd) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return try readLine(fd: fd) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        quiet.c_lflag |= tcflag_t(ICANON)
        TerminalRestore.install(fd: fd, original: saved)
        _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            TerminalRestore.uninstall()
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return try readLine(fd: fd)
    }

    /// Reads bytes up to a newline (not included) or the end of input, one byte at a time so nothing past the
    /// line is consumed. A trailing CR is dropped. Throws ``Failure/endOfInput`` on an empty, closed input.
    static func readLine(fd: Int32) throws -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        defer { for index in buffer.indices { buffer[index] = 0 } }
        var byte: UInt8 = 0
        var sawAny = false
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.readFailed(errno)
            }
            if count == 0 { break }
            sawAny = true
            if byte == UInt8(ascii: "\n") { break }
            buffer.append(byte)
        }
        byte = 0
        guard sawAny else { throw Failure.endOfInput }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        return String(decoding: buffer, as: UTF8.self)
    }
}

/// Puts the terminal's echo back if the user presses Ctrl-C at a hidden prompt.
private enum TerminalRestore {
    // nonisolated(unsafe): written only on the main thread before/after a prompt, read by the signal handler.
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var fd: Int32 = -1

    static func install(fd: Int32, original: termios) {
        saved = original
        self.fd = fd
        signal(SIGINT) { signalNumber in
            if TerminalRestore.fd >= 0 { _ = tcsetattr(TerminalRestore.fd, TCSANOW, &TerminalRestore.saved) }
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
    }

    static func uninstall() {
        fd = -1
        signal(SIGINT, SIG_DFL)
    }
}
