import Foundation
import LatchkeyTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `latchkey serve` (the binary built beside these tests) on a free loopback port, its SQLite database in a temporary
/// directory, with the App Attest options a test gives; stopped with `stop()`.
final class LatchkeyServe {
    let process: Process
    let baseURL: URL
    let directory: URL

    /// The binary next to the test bundle, or nil when this build has none (the tests are then skipped, or fail under
    /// LATCHKEY_REQUIRE_SERVICES=1).
    static var binary: String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("latchkey")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside.path : nil
    }

    init(binary: String, arguments: [String]) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-appattest-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0", "--threads", "2",
                             "--database", "sqlite:" + directory.appendingPathComponent("server.sqlite").path] + arguments
        baseURL = try await startListening(process, errorLog: directory.appendingPathComponent("stderr.log"))
    }

    /// A POST and its answer: the status and the JSON object (empty when the body is none).
    func post(_ path: String, body: Data, contentType: String = "application/json",
              headers: [String: String] = [:]) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
