#if !LATCHKEY_APPLE_FRAMEWORKS  // the command-line products are not built in the Apple mode
import Foundation
import LatchkeyTestSupport
import Testing

/// `latchkey keychain add-generic-password --require ...` (issue #4 item 5): gated items through the
/// simulated sensor, driven by `latchkey auth simulate` as a script would.
@Suite(.offCooperativePool) struct CLIKeychainAccessControlTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-cli-ac-\(UUID().uuidString)")

    /// Runs the built binary with a vault passphrase on stdin (`--passphrase-fd 0` for keychain commands).
    func latchkey(_ arguments: [String], input: String = "") throws -> (status: Int32, stdout: String) {
        let binary = try #require(LatchkeyCLI.binary, "build the latchkey product first")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["LATCHKEY_SIMULATOR_STATE"] = home.appendingPathComponent("sensor.json").path
        environment["LATCHKEY_AUTH_BACKEND"] = "simulated"
        environment["LATCHKEY_LANG"] = "en"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil // a passphrase vault, independent of any keyring
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self))
    }

    func keychain(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try latchkey(["keychain"] + arguments + ["--passphrase-fd", "0"], input: "vault passphrase\n")
    }

    @Test(arguments: ["biometry-current-set", "biometry-any"])
    func gatedItemsOpenOnlyAfterAMatchingFinger(requirement: String) throws {
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try latchkey(["auth", "simulate", "set-passcode"], input: "1234\n").status == 0)
        #expect(try latchkey(["auth", "simulate", "enroll"]).status == 0)

        // Adding asks nothing (the item is sealed to the domain's public key, as Apple adds without a prompt): a scan
        // while adding would take the "no-match" queued here.
        #expect(try latchkey(["auth", "simulate", "no-match"]).status == 0)
        #expect(try keychain(["add-generic-password", "-s", "bank", "-a", "me", "--require", requirement,
                              "-w", "pin-0000"]).status == 0)
        let first = try keychain(["find-generic-password", "-s", "bank", "-a", "me", "-w"])
        #expect(first.status == 77, "the queued no-match answers the first read")
        #expect(try latchkey(["auth", "simulate", "match"]).status == 0)
        let read = try keychain(["find-generic-password", "-s", "bank", "-a", "me", "-w"])
        #expect(read.status == 0 && read.stdout == "pin-0000\n")

        #expect(try latchkey(["auth", "simulate", "no-match"]).status == 0)
        let refused = try keychain(["find-generic-password", "-s", "bank", "-a", "me", "-w"])
        #expect(refused.status == 77 && !refused.stdout.contains("pin-0000"))

        // Attributes stay readable without a prompt; the access control shows as "accc".
        let attributes = try keychain(["find-generic-password", "-s", "bank", "-a", "me"])
        #expect(attributes.status == 0 && attributes.stdout.contains("\"accc\""))

        // A new enrolment kills biometryCurrentSet items; biometryAny items survive it.
        #expect(try latchkey(["auth", "simulate", "enroll"]).status == 0)
        #expect(try latchkey(["auth", "simulate", "match"]).status == 0)
        let afterEnrolment = try keychain(["find-generic-password", "-s", "bank", "-a", "me", "-w"])
        if requirement == "biometry-current-set" {
            #expect(afterEnrolment.status == 77)
        } else {
            #expect(afterEnrolment.status == 0 && afterEnrolment.stdout == "pin-0000\n")
        }
    }

    @Test func rejectsUnknownRequirements() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try keychain(["add-generic-password", "-s", "x", "-a", "y", "--require", "retina", "-w", "z"]).status == 64)
    }
}
#endif
