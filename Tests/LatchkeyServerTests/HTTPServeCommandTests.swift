import Foundation
import LatchkeyTestSupport
import Testing

@Suite("latchkey serve", .serialized, .offCooperativePool)
struct HTTPServeCommandTests {
    @Test func servesHealthzAndStopsCleanlyOnSIGTERM() async throws {
        let server = try await ServeProcess(["--access-log"] + OpenAPITests.databaseArguments())
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        let health = try await rawRequest(port: server.port, "GET /healthz?secret=abc HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(health.status == 200)
        #expect(try await server.stop() == 0)
        let log = String(decoding: server.errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains(#"method=GET path="/healthz" status=200"#))
        #expect(!log.contains("secret"))
    }

    /// The signal handlers are in place before `listening on` is printed: a SIGTERM sent the moment the line
    /// appears stops the server (it used to be lost while Dispatch registered its signal source).
    @Test func sigtermRightAfterListeningStopsTheServer() async throws {
        for _ in 0..<5 {
            let server = try await ServeProcess(OpenAPITests.databaseArguments())
            let started = Date()
            #expect(try await server.stop() == 0)
            #expect(Date().timeIntervalSince(started) < 20, "stopped by SIGTERM, not by the watchdog's SIGKILL")
        }
    }

    @Test func badOptionsExitWithUsage() async throws {
        #expect(try await ServeProcess.run(["serve", "--port", "99999"]).status == 64)
        #expect(try await ServeProcess.run(["serve", "--database", "mysql://x"]).status == 64)
        #expect(try await ServeProcess.run(["serve", "--bogus"]).status == 64)
        #expect(try await ServeProcess.run(["serve", "--host", "not-an-ip", "--port", "0"]).status == 1)
    }

    /// `--attestation-roots DIR` loads DIR/<format>/*.pem; a file that does not parse, or a folder that is no
    /// attestation format, stops the server with a message naming it. `--attestation` takes the four preferences.
    @Test func attestationRootsAndPreference() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let roots = URL(fileURLWithPath: pki.path("roots"))
        let packed = roots.appendingPathComponent("packed"), apple = roots.appendingPathComponent("apple")
        for folder in [packed, apple] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let root = try String(contentsOfFile: pki.path("ca.pem"), encoding: .utf8)
        try root.write(to: packed.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        try (root + root).write(to: apple.appendingPathComponent("two.pem"), atomically: true, encoding: .utf8)
        try "ignored".write(to: apple.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        let base = ["serve", "--print-routes", "--attestation", "direct"]
        let loaded = try await ServeProcess.runCapturingErrors(base + ["--attestation-roots", roots.path])
        #expect(loaded.status == 0)
        #expect(loaded.errors.contains("attestation roots: packed 1, apple 2"), "\(loaded.errors)")
        #expect(loaded.output.contains("POST /v1/passkeys/register/options"))

        let bad = apple.appendingPathComponent("bad.pem")
        try "-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await ServeProcess.runCapturingErrors(base + ["--attestation-roots", roots.path])
        #expect(refused.status == 1)
        #expect(refused.errors.contains(bad.path) && refused.errors.contains("PEM certificate 1"), "\(refused.errors)")
        try FileManager.default.removeItem(at: bad)

        try FileManager.default.createDirectory(at: roots.appendingPathComponent("pakced"), withIntermediateDirectories: true)
        let typo = try await ServeProcess.runCapturingErrors(base + ["--attestation-roots", roots.path])
        #expect(typo.status == 1 && typo.errors.contains("pakced is not an attestation format"), "\(typo.errors)")
        try FileManager.default.removeItem(at: roots.appendingPathComponent("pakced"))

        let missing = try await ServeProcess.runCapturingErrors(base + ["--attestation-roots", pki.path("nowhere")])
        #expect(missing.status == 1 && missing.errors.contains("cannot read"))
        // A running server asks for the attestation it was told to, and requires user verification by default.
        let server = try await ServeProcess(["--attestation", "direct", "--attestation-roots", roots.path]
                                            + OpenAPITests.databaseArguments())
        let body = #"{"username":"attestation-roots"}"#
        let options = try await rawRequest(port: server.port, "POST /v1/passkeys/register/options HTTP/1.1\r\nHost: t\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        #expect(try await server.stop() == 0)
        #expect(options.status == 200)
        #expect(options.text.contains(#""attestation":"direct""#) && options.text.contains(#""userVerification":"required""#),
                "\(options.text)")
        for preference in ["none", "indirect", "enterprise"] {
            #expect(try await ServeProcess.run(["serve", "--print-routes", "--attestation", preference]).status == 0)
        }
        #expect(try await ServeProcess.run(["serve", "--attestation", "always"]).status == 64)
    }
}
