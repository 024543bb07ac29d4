import Foundation
import LatchkeyServer
import Testing

@Suite("HTTP graceful shutdown", .serialized)
struct HTTPShutdownTests {
    static func waitForInFlight(_ server: HTTPServer) async throws {
        for _ in 0..<500 where server.inFlightRequests == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.inFlightRequests > 0)
    }

    @Test func shutdownFinishesTheRequestInFlight() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2, accessLog: nil),
                                router: Router(TestRoutes.all))
        try server.start()
        let port = server.port
        let slow = Task { try await rawRequest(port: port, "GET /v1/slow?ms=400 HTTP/1.1\r\nHost: t\r\n\r\n") }
        try await Self.waitForInFlight(server)
        await server.shutdown(gracePeriod: .seconds(5))
        let response = try await slow.value
        #expect(response.status == 200)
        #expect(try response.bodyJSON([String: Int].self) == ["slept": 400])
        #expect(!server.isRunning)
        await #expect(throws: RawClientError.self) {
            _ = try await rawRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        }
    }

    @Test func shutdownAnswers503WhenTheGracePeriodRunsOut() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2, accessLog: nil),
                                router: Router(TestRoutes.all))
        try server.start()
        let port = server.port
        let slow = Task { try await rawRequest(port: port, "GET /v1/slow?ms=3000 HTTP/1.1\r\nHost: t\r\n\r\n") }
        try await Self.waitForInFlight(server)
        await server.shutdown(gracePeriod: .milliseconds(100))
        let response = try await slow.value
        #expect(response.status == 503)
        #expect(try response.bodyJSON(HTTPErrorBody.self).error == "temporarily_unavailable")
    }

    @Test func shutdownIsIdempotentAndStopsAnIdleServer() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, accessLog: nil), router: Router([]))
        await server.shutdown()
        try server.start()
        #expect(server.isRunning)
        server.shutdownBlocking(gracePeriod: .seconds(1))
        await server.shutdown()
        #expect(!server.isRunning)
        #expect(server.port == 0)
    }
}
