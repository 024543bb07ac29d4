#if os(Linux)
import Foundation
import LatchkeyTestSupport
import Glibc
import LatchkeySupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

/// fprintd with libfprint's virtual device on a private bus, polkit from python-dbusmock: a real
/// fingerprint stack driven through `pam_fprintd`, which `PAMAuthenticator` uses as its biometric service.
/// Needs the Debian packages `fprintd`, `libpam-fprintd`, `python3-dbusmock`; skipped without them.
enum FprintdStack {
    static let fprintd = "/usr/libexec/fprintd"
    static let pamFprintd = "/lib/x86_64-linux-gnu/security/pam_fprintd.so"
    static let python = "/usr/bin/python3"
    static let dbusDaemon = "/usr/bin/dbus-daemon"
    static let gdbus = "/usr/bin/gdbus"
    static let enroll = "/usr/bin/fprintd-enroll"
    static let stdbuf = "/usr/bin/stdbuf"

    static var available: Bool {
        let files = [fprintd, pamFprintd, python, dbusDaemon, gdbus, enroll, stdbuf, PAMFixture.matrix]
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else { return false }
        return (try? run(python, ["-c", "import dbusmock"])) == 0
    }

    /// Runs a program to completion and returns what it printed.
    static func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a program to completion and returns its exit status.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Sends commands to the virtual device's socket, one connection per command, retrying while the
/// device is not open yet (the socket only listens while fprintd has the device claimed).
struct VirtualFinger: Sendable {
    let socketPath: String

    @discardableResult
    func send(_ command: String, attempts: Int = 200) -> Bool {
        for _ in 0..<attempts {
            if sendOnce(command) { return true }
            usleep(25_000)
        }
        return false
    }

    private func sendOnce(_ command: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return false }
        let bytes = Array(command.utf8)
        return write(fd, bytes, bytes.count) == bytes.count
    }
}

/// The finger the "user" puts on the reader when pam_fprintd asks for it.
final class FingerOnReader: PasscodeProvider {
    private let finger: VirtualFinger
    private let queue: Locked<[String]>

    init(finger: VirtualFinger, scans: [String]) {
        self.finger = finger
        queue = Locked(scans)
    }

    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { nil }

    func display(_ message: String, isError: Bool) {
        guard !isError, message.lowercased().contains("finger") else { return }
        guard let scan = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
        let finger = finger
        Thread.detachNewThread { finger.send("SCAN \(scan)") }
    }
}

/// The running stack; `stop()` ends exactly the processes it started.
final class FprintdHarness: @unchecked Sendable {
    // @unchecked: built once in `start`, then only read; `stop` runs after the test finished with it.
    let directory: TemporaryDirectory
    let busAddress: String
    let finger: VirtualFinger
    private var processes: [Process] = []

    init() throws {
        directory = try TemporaryDirectory()
        busAddress = "unix:path=\(directory.url.path)/bus.sock"
        finger = VirtualFinger(socketPath: directory.url.path + "/virtdev.sock")
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = busAddress
        return environment
    }

    func start() throws {
        try spawn(FprintdStack.dbusDaemon, ["--config-file=/usr/share/dbus-1/session.conf",
                                           "--address=\(busAddress)", "--nofork"])
        try waitFor { FileManager.default.fileExists(atPath: self.directory.url.path + "/bus.sock") }
        try spawn(FprintdStack.python, ["-m", "dbusmock", "--template", "polkitd", "--system"])
        let allow = ["call", "--system", "--dest", "org.freedesktop.PolicyKit1",
                     "--object-path", "/org/freedesktop/PolicyKit1/Authority",
                     "--method", "org.freedesktop.DBus.Mock.SetAllowed",
                     "['net.reactivated.fprint.device.enroll','net.reactivated.fprint.device.verify',"
                     + "'net.reactivated.fprint.device.setusername']"]
        try waitFor { (try? FprintdStack.run(FprintdStack.gdbus, allow, environment: self.environment)) == 0 }
        let state = directory.url.appendingPathComponent("fprint-state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var daemon = environment
        daemon["FP_VIRTUAL_DEVICE"] = finger.socketPath
        daemon["STATE_DIRECTORY"] = state.path
        daemon["G_MESSAGES_DEBUG"] = "all"
        try spawn(FprintdStack.fprintd, ["-t"], environment: daemon, log: directory.url.appendingPathComponent("fprintd.log"))
        let hasOwner = ["call", "--system", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                        "--method", "org.freedesktop.DBus.NameHasOwner", "net.reactivated.Fprint"]
        try waitFor { (try? FprintdStack.output(FprintdStack.gdbus, hasOwner, environment: self.environment))?.contains("true") == true }
    }

    /// Enrols `name` for `user` through fprintd-enroll, feeding one scan once enrolment has started.
    func enroll(_ name: String, user: String) throws -> (status: Int32, output: String) {
        let process = Process()
        // Line-buffered, so "Enrolling …" (printed once EnrollStart returned) reaches the pipe at once.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["30", FprintdStack.stdbuf, "-oL", FprintdStack.enroll, "-f", "right-index-finger", user]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        processes.append(process)
        var text = ""
        func readUntil(_ marker: String, after offset: String.Index) -> Bool {
            while !text[offset...].contains(marker) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return false }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return true
        }
        // One scan per enrolment stage, each sent once the previous stage was reported.
        if readUntil("Enrolling", after: text.startIndex) {
            for _ in 0..<10 {
                let before = text.endIndex
                guard finger.send("SCAN \(name)"), readUntil("Enroll result", after: before) else { break }
                if !text[before...].contains("enroll-stage-passed") { break }
            }
        }
        process.waitUntilExit()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    func stop() {
        // SIGKILL: the children inherit a signal mask from the test process that can block SIGTERM.
        for process in processes.reversed() where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        directory.cleanUp()
    }

    private func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                       log: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment ?? self.environment
        process.standardInput = FileHandle.nullDevice
        if let log, FileManager.default.createFile(atPath: log.path, contents: nil),
           let handle = try? FileHandle(forWritingTo: log) {
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        processes.append(process)
    }

    private func waitFor(_ condition: () -> Bool) throws {
        for _ in 0..<200 {
            if condition() { return }
            usleep(25_000)
        }
        throw CocoaError(.fileReadUnknown)
    }
}

@Suite("Fingerprint through fprintd's virtual device and pam_fprintd", .serialized,
       .enabled(if: FprintdStack.available), .offCooperativePool)
struct FprintdTests {
    @Test func fingerprintMatchNonMatchLockoutAndPasscode() async throws {
        let harness = try FprintdHarness()
        defer { harness.stop() }
        try harness.start()
        // pam_fprintd (inside this process) finds fprintd on the system bus.
        let previousBus = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", harness.busAddress, 1)
        defer {
            if let previousBus { setenv("DBUS_SYSTEM_BUS_ADDRESS", previousBus, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
        let user = PAMAuthenticator.currentUser()
        let enrolment = try harness.enroll("finger-A", user: user)
        let daemonLog = (try? String(contentsOf: harness.directory.url.appendingPathComponent("fprintd.log"), encoding: .utf8)) ?? ""
        try #require(enrolment.status == 0, "fprintd-enroll: \(enrolment.output)\nfprintd: \(daemonLog.suffix(3000))")

        let services = harness.directory.url.appendingPathComponent("pam.d", isDirectory: true)
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try "auth required \(FprintdStack.pamFprintd) max-tries=1 timeout=10\naccount required pam_permit.so\n"
            .write(to: services.appendingPathComponent("latchkey-fingerprint"), atomically: true, encoding: .utf8)
        try "auth required \(PAMFixture.matrix) passdb=\(harness.directory.url.path)/passdb\naccount required \(PAMFixture.matrix) passdb=\(harness.directory.url.path)/passdb\n"
            .write(to: services.appendingPathComponent("latchkey-password"), atomically: true, encoding: .utf8)
        try "\(user):password:latchkey-password\n"
            .write(to: harness.directory.url.appendingPathComponent("passdb"), atomically: true, encoding: .utf8)

        let scans = ["finger-A", "finger-B", "finger-B", "finger-B", "finger-B", "finger-B", "finger-A"]
        let reader = FingerOnReader(finger: harness.finger, scans: scans)
        let authenticator = PAMAuthenticator(configuration: .init(
            service: "latchkey-password", user: user, configurationDirectory: services,
            biometricService: "latchkey-fingerprint", biometricResponder: reader, biometryType: .touchID,
            stateURL: harness.directory.url.appendingPathComponent("state/pam-secrets")))

        // A matching finger.
        let context = authenticator.makeContext()
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "Unlock")
        #expect(try context.releaseSecret(for: .biometryAny).count == 32)

        // Non-matching fingers: PAM_MAXTRIES each time, Latchkey's own counter locks at 5.
        for _ in 1...4 {
            #expect(await authError { try await authenticator.makeContext().evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "r") } == .authenticationFailed)
        }
        #expect(await authError { try await authenticator.makeContext().evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "r") } == .biometryLockout)
        #expect(syncAuthError { try authenticator.makeContext().canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryLockout)

        // The password (pam_matrix) lifts the lockout; the finger works again.
        let owner = authenticator.makeContext(passcodeProvider: ScriptedPasscodeProvider("password"))
        try await owner.evaluate(.deviceOwnerAuthentication, reason: "r")
        #expect(try authenticator.failedAttempts() == 0)
        try await authenticator.makeContext().evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "r")
    }
}
#endif
