import Foundation
import LatchkeyTestSupport
import Testing

/// `latchkey passkey register` then `latchkey passkey login` against a real `latchkey serve`, with the
/// built binary in a temporary HOME / XDG_DATA_HOME (vault opened with a passphrase on stdin).
@Suite("Passkey CLI", .serialized, .offCooperativePool)
struct PasskeyCLITests {
    static let binary: URL? = {
        let first = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [first, first.deletingLastPathComponent(), Bundle.main.bundleURL,
                          Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = directory.appendingPathComponent("latchkey")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: url.path) {
                return url
            }
        }
        return nil
    }()

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ binary: URL, _ arguments: [String], home: URL, input: String) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["LATCHKEY_LANG"] = "en"
        environment["LATCHKEY_VAULT"] = nil
        environment["LATCHKEY_BACKEND"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                   stderr: String(decoding: err, as: UTF8.self))
    }

    /// Starts `latchkey serve --port 0` and returns it with its port (parsed from `listening on ...`).
    static func startServer(_ binary: URL, directory: URL) throws -> (Process, UInt16) {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--database", "sqlite:" + directory.appendingPathComponent("db.sqlite").path]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = stdout.fileHandleForReading
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("listening on "),
              let portText = line.split(separator: ":").last, let port = UInt16(portText) else {
            process.terminate()
            throw CLIFailure(message: "serve did not start: \(text)")
        }
        return (process, port)
    }

    struct CLIFailure: Error { let message: String }

    /// Runs `body` with the CLI binary, a fresh home directory and a `latchkey serve` on it (stopped after).
    func withServer(_ body: (_ binary: URL, _ home: URL, _ url: String, _ passphrase: String) throws -> Void) throws {
        let binary = try #require(Self.binary, "build the latchkey product first (swift build --build-tests)")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-passkey-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let (server, port) = try Self.startServer(binary, directory: home)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let url = "http://127.0.0.1:\(port)"
        let passphrase = "a vault passphrase\n"
        try body(binary, home, url, passphrase)
    }

    @Test func registerThenLoginFromATerminal() throws {
        try withServer { binary, home, url, passphrase in
            let registered = try Self.run(binary, ["passkey", "register", "--server", url, "--username", "alice",
                                                   "--passphrase-fd", "0"], home: home, input: passphrase)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.stdout.contains("signed in as alice"))
            #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("data/latchkey/default.vault").path))

            let login = try Self.run(binary, ["passkey", "login", "--server", url, "--passphrase-fd", "0"],
                                     home: home, input: passphrase)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("signed in as alice"))

            // The name is taken now: the server refuses, the CLI says so with exit code 77.
            let again = try Self.run(binary, ["passkey", "register", "--server", url, "--username", "alice",
                                              "--passphrase-fd", "0"], home: home, input: passphrase)
            #expect(again.status == 77)
            #expect(again.stderr.contains("username_taken") || again.stderr.lowercased().contains("taken"))

            // A wrong passphrase does not open the vault.
            let locked = try Self.run(binary, ["passkey", "login", "--server", url, "--passphrase-fd", "0"],
                                      home: home, input: "not it\n")
            #expect(locked.status != 0)
            #expect(!locked.stdout.contains("signed in"))

            let usage = try Self.run(binary, ["passkey", "register", "--server", url], home: home, input: "")
            #expect(usage.status == 64)
        }
    }

    @Test func listAndRenameFromATerminal() throws {
        try withServer { binary, home, url, passphrase in
            func cli(_ arguments: [String]) throws -> Run {
                try Self.run(binary, ["passkey"] + arguments + ["--server", url, "--passphrase-fd", "0"], home: home, input: passphrase)
            }

            // Not signed in yet: nothing to list with.
            #expect(try cli(["list"]).status == 77)
            #expect(try cli(["register", "--username", "erin"]).status == 0)
            let fresh = try cli(["list"])
            #expect(fresh.status == 0, "\(fresh.stderr)")
            #expect(fresh.stdout.contains("Passkey  (id "))
            #expect(fresh.stdout.contains("last used:     never"))
            #expect(fresh.stdout.contains("backup:        device-bound"))
            #expect(fresh.stdout.contains("authenticator: unknown"))
            let id = try #require(fresh.stdout.split(separator: "(id ").last?.split(separator: ")").first.map(String.init))

            #expect(try cli(["login"]).status == 0)
            let renamed = try cli(["rename", "--id", id, "--name", "터미널 키"])
            #expect(renamed.status == 0, "\(renamed.stderr)")
            #expect(renamed.stdout.contains("renamed \(id) to 터미널 키"))
            let after = try cli(["list"])
            #expect(after.stdout.contains("터미널 키  (id \(id))"))
            #expect(!after.stdout.contains("last used:     never"))

            let refused = try cli(["rename", "--id", id, "--name", "bad\u{202E}name"])
            #expect(refused.status == 77)
            #expect(refused.stderr.contains("invalid_name"))
            #expect(try cli(["rename", "--id", id]).status == 64)
            #expect(try cli(["rename", "--id", "../me", "--name", "x"]).status == 64)
        }
    }
}
