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

    @Test func badOptionsExitWithUsage() async throws {
        #expect(try await ServeProcess.run(["serve", "--port", "99999"]).status == 64)
        #expect(try await ServeProcess.run(["serve", "--database", "mysql://x"]).status == 64)
        #expect(try await ServeProcess.run(["serve", "--bogus"]).status == 64)
        #expect(try await ServeProcess.run(["serve", "--host", "not-an-ip", "--port", "0"]).status == 1)
    }
}
