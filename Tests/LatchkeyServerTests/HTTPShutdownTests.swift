import Foundation
import LatchkeyTestSupport
import LatchkeyServer
import Testing

@Suite("HTTP graceful shutdown", .serialized, .offCooperativePool)
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

    /// A rolling restart: once a shutdown has begun the port is free, so a successor serves on it while the
    /// predecessor still finishes its request in flight (answered with `Connection: close`).
    @Test func shutdownReleasesThePortWhileTheRequestInFlightFinishes() async throws {
        let (gate, release) = AsyncStream<Void>.makeStream()
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2, accessLog: nil),
                                router: Router([Route("GET", "/held") { _ in
                                    for await _ in gate { break }
                                    return .json(["released": true])
                                }]))
        try server.start()
        let port = server.port
        let held = Task { try await rawRequest(port: port, "GET /held HTTP/1.1\r\nHost: t\r\n\r\n") }
        try await Self.waitForInFlight(server)
        let draining = Task { await server.shutdown(gracePeriod: .seconds(60)) }
        for _ in 0..<1000 where server.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!server.isRunning)
        let successor = HTTPServer(configuration: HTTPServerConfiguration(port: port, threads: 1, accessLog: nil), router: Router([]))
        try successor.start()
        #expect(try await rawRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        #expect(server.inFlightRequests == 1)
        release.yield()
        let response = try await held.value
        #expect(response.status == 200)
        #expect(response.headers["connection"]?.lowercased() == "close")
        await draining.value
        await successor.shutdown()
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
