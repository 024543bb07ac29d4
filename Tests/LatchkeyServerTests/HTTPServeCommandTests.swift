import Foundation
import Testing

@Suite("latchkey serve", .serialized)
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
}
