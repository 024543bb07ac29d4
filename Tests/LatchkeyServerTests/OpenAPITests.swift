import Foundation
import Testing

/// One documented operation of docs/openapi.yaml.
struct OpenAPIOperation: Sendable, Hashable {
    var method: String
    var path: String
    var statuses: Set<Int>
    var testBody: String?
    var testContentType: String?

    /// The path as the router writes it (`/v1/passkeys/{id}` → `/v1/passkeys/:id`).
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : part
        }.joined(separator: "/")
    }

    /// A concrete path to request (`{id}` → `test`).
    var samplePath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? "test" : String(part)
        }.joined(separator: "/")
    }
}

enum OpenAPIReaderError: Error, CustomStringConvertible {
    case badLine(Int, String)
    var description: String {
        switch self { case .badLine(let number, let why): return "openapi.yaml line \(number): \(why)" }
    }
}

/// Reads the operations out of the YAML subset docs/openapi.yaml is written in (see the comment at its top).
enum OpenAPIReader {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    static func documentURL() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml")
    }

    static func unquote(_ text: Substring) -> String {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") {
            return String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    static func parse(_ text: String) throws -> [OpenAPIOperation] {
        var operations: [OpenAPIOperation] = []
        var inPaths = false
        var path: String?
        var current: OpenAPIOperation?
        var inResponses = false
        func flush() {
            if let operation = current { operations.append(operation) }
            current = nil
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if raw.contains("\t") { throw OpenAPIReaderError.badLine(number, "tab character") }
            let trimmed = raw.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = raw.count - trimmed.count
            guard indent % 2 == 0 else { throw OpenAPIReaderError.badLine(number, "odd indentation") }
            let key: Substring
            let value: Substring
            if let colon = trimmed.firstIndex(of: ":"), !trimmed.hasPrefix("- ") {
                key = trimmed[..<colon]
                value = trimmed[trimmed.index(after: colon)...]
            } else {
                key = trimmed
                value = ""
            }
            if indent == 0 {
                flush()
                inPaths = key == "paths"
                path = nil
                continue
            }
            guard inPaths else { continue }
            switch indent {
            case 2:
                flush()
                guard key.hasPrefix("/") else { throw OpenAPIReaderError.badLine(number, "path must start with /") }
                path = String(key)
            case 4:
                flush()
                guard let path, methods.contains(String(key)) else {
                    throw OpenAPIReaderError.badLine(number, "expected an HTTP method under a path")
                }
                current = OpenAPIOperation(method: key.uppercased(), path: path, statuses: [])
                inResponses = false
            case 6:
                inResponses = key == "responses"
                if key == "x-test-body" { current?.testBody = unquote(value) }
                if key == "x-test-content-type" { current?.testContentType = unquote(value) }
            case 8 where inResponses:
                guard let status = Int(unquote(key)), (100...599).contains(status) else {
                    throw OpenAPIReaderError.badLine(number, "response key must be a quoted status code")
                }
                current?.statuses.insert(status)
            default:
                continue
            }
        }
        flush()
        return operations
    }
}

@Suite("OpenAPI document", .serialized)
struct OpenAPITests {
    static func operations() throws -> [OpenAPIOperation] {
        try OpenAPIReader.parse(String(contentsOf: OpenAPIReader.documentURL(), encoding: .utf8))
    }

    @Test func readerUnderstandsTheSubset() throws {
        let text = """
            openapi: 3.1.0
            paths:
              /v1/items/{id}:
                post:
                  x-test-body: '{"a":''b''}'
                  responses:
                    "200":
                      description: ok
                    "404":
                      description: missing
                get:
                  responses:
                    "200":
                      description: ok
            components:
              schemas:
                X:
                  type: object
            """
        let operations = try OpenAPIReader.parse(text)
        #expect(operations.count == 2)
        #expect(operations.first == OpenAPIOperation(method: "POST", path: "/v1/items/{id}", statuses: [200, 404],
                                                      testBody: #"{"a":'b'}"#))
        #expect(operations.first?.routerPath == "/v1/items/:id")
        #expect(operations.first?.samplePath == "/v1/items/test")
        #expect(throws: OpenAPIReaderError.self) { try OpenAPIReader.parse("paths:\n  healthz:\n") }
    }

    @Test func documentIsReadableAndEveryOperationHasResponses() throws {
        let operations = try Self.operations()
        #expect(operations.contains { $0.method == "GET" && $0.path == "/healthz" && $0.statuses == [200] })
        for operation in operations {
            #expect(!operation.statuses.isEmpty, "\(operation.method) \(operation.path) documents no responses")
        }
        #expect(Set(operations.map { "\($0.method) \($0.path)" }).count == operations.count)
    }

    @Test func documentedRoutesMatchTheServedRouteTable() async throws {
        let documented = Set(try Self.operations().map { "\($0.method) \($0.routerPath)" })
        let (status, output) = try await ServeProcess.run(["serve", "--print-routes"] + Self.databaseArguments())
        #expect(status == 0)
        let served = Set(output.split(separator: "\n").map(String.init))
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented))")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served))")
    }

    @Test func printingTheRoutesCreatesNoDatabase() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-print-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("server.sqlite").path
        let (status, output) = try await ServeProcess.run(["serve", "--print-routes", "--database", "sqlite:" + path])
        #expect(status == 0)
        #expect(output.contains("GET /healthz"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "no database file was made")
    }

    @Test func everyDocumentedRouteAnswersWithADocumentedStatus() async throws {
        let operations = try Self.operations()
        let server = try await ServeProcess(Self.databaseArguments())
        for operation in operations {
            var request = "\(operation.method) \(operation.samplePath) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            let body = operation.testBody ?? (["GET", "DELETE", "HEAD"].contains(operation.method) ? nil : "{}")
            if let body {
                request += "Content-Type: \(operation.testContentType ?? "application/json")\r\n"
                request += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            } else {
                request += "\r\n"
            }
            let response = try await rawRequest(port: server.port, request)
            #expect(operation.statuses.contains(response.status),
                    "\(operation.method) \(operation.path) answered \(response.status), documented \(operation.statuses.sorted())")
        }
        #expect(try await server.stop() == 0)
    }

    /// `--database sqlite:<temp dir>/server.sqlite`; the directory is removed when the test process exits.
    static func databaseArguments() -> [String] {
        ["--database", "sqlite:" + scratch.appendingPathComponent("server-\(UUID().uuidString).sqlite").path]
    }

    static let scratch: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-http-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: OpenAPITests.scratch) }
        return directory
    }()
}
