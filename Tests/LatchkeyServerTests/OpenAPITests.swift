import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyServer

/// docs/openapi.yaml and the server are one truth: these tests read the document and check the served route table,
/// the media types each operation takes and refuses, the length limits against the server's constants (and its
/// behaviour at them), that every error answer is described with the shared `Error` schema and that every operation
/// answers a documented status. `make test` then runs schemathesis against a live server (scripts/contract-test.sh).
@Suite("OpenAPI document", .serialized, .offCooperativePool)
struct OpenAPITests {
    static func document() throws -> OpenAPIDocument { try OpenAPIDocument.load() }

    @Test func readerUnderstandsTheSubset() throws {
        let text = """
            openapi: 3.1.0
            paths:
              /v1/items/{id}:
                post:
                  x-test-body: '{"a":''b''}'
                  security:
                    - {}
                    - bearer: []
                  parameters:
                    - name: id
                      in: path
                  responses:
                    "200":
                      description: 'ok: fine'
                    "404":
                      $ref: "#/components/responses/Missing"
                get:
                  responses:
                    "200":
                      description: ok
            components:
              responses:
                Missing:
                  description: missing
              schemas:
                X:
                  type:
                    - string
                    - "null"
                  pattern: "^\\\\S$"
            """
        let document = try OpenAPIDocument(text)
        let operations = document.operations
        #expect(operations.count == 2)
        let post = try #require(operations.first)
        #expect(post.method == "POST" && post.statuses == [200, 404] && post.testBody == #"{"a":'b'}"#)
        #expect(post.usesBearer && post.pathParameterNames == ["id"])
        #expect(post.node["parameters"]?.items.first?["in"]?.text == "path")
        #expect(post.node["responses"]?["200"]?["description"]?.text == "ok: fine")
        #expect(document.resolve(try #require(post.node["responses"]?["404"]))["description"]?.text == "missing")
        #expect(post.routerPath == "/v1/items/:id" && post.samplePath == "/v1/items/test")
        #expect(document.schema("X")?["type"]?.items.map(\.text) == ["string", "null"])
        #expect(document.schema("X")?["pattern"]?.text == #"^\S$"#)
        #expect(throws: YAMLSubsetError.self) { try YAMLSubset.parse("paths:\n   odd: 1\n") }
    }

    @Test func everyOperationIsDescribed() throws {
        let document = try Self.document()
        let operations = document.operations
        #expect(operations.count == 28)
        #expect(Set(operations.map(\.operationID)).count == operations.count, "operationIds are unique")
        for operation in operations {
            let name = "\(operation.method) \(operation.path)"
            #expect(!operation.operationID.isEmpty && !operation.statuses.isEmpty, "\(name)")
            // Path parameters are declared.
            let declared = Set((operation.node["parameters"]?.items ?? []).map(document.resolve)
                .filter { $0["in"]?.text == "path" }.compactMap { $0["name"]?.text })
            #expect(declared == operation.pathParameterNames, "\(name): path parameters \(declared)")
            // A parameter can be sent undecodable (`%FF`): 400 is documented where the path has one.
            if !declared.isEmpty { #expect(operation.statuses.contains(400), "\(name): 400 for an undecodable path") }
            // Every error answer has the shared Error body; 401 of a Bearer operation says WWW-Authenticate; 429 and
            // 503 say Retry-After.
            for (status, response) in operation.node["responses"]?.entries ?? [] {
                let resolved = document.resolve(response)
                guard let code = Int(status), code >= 400 else { continue }
                #expect(resolved["content"]?["application/json"]?["schema"]?["$ref"]?.text == "#/components/schemas/Error",
                        "\(name) \(status) has no Error body")
                if code == 429 || code == 503 {
                    #expect(resolved["headers"]?["Retry-After"] != nil, "\(name) \(status) without Retry-After")
                }
                if code == 401, operation.usesBearer {
                    #expect(resolved["headers"]?["WWW-Authenticate"] != nil, "\(name) 401 without WWW-Authenticate")
                }
            }
            // A body operation documents its media types and 413; only /healthz is answered over the connection limit.
            if operation.takesBody {
                #expect(!operation.requestMediaTypes.isEmpty && operation.statuses.contains(413), "\(name)")
            }
            #expect(operation.statuses.contains(503) == (operation.path != "/healthz"), "\(name) and 503")
            // Links name operations that exist.
            for (_, response) in operation.node["responses"]?.entries ?? [] {
                for (link, target) in document.resolve(response)["links"]?.entries ?? [] {
                    let id = target["operationId"]?.text ?? ""
                    #expect(operations.contains { $0.operationID == id }, "\(name) link \(link) → \(id)")
                }
            }
        }
        // The stateful chains: account creation → login → refresh, rename, logout; and login → list sessions → end one
        // → delete the account.
        func links(_ operationID: String, _ status: String) throws -> Set<String> {
            let operation = try #require(operations.first { $0.operationID == operationID })
            return Set(operation.node["responses"]?[status]?["links"]?.entries.compactMap { $0.value["operationId"]?.text } ?? [])
        }
        #expect(try links("passwordLogin", "200").isSuperset(of: ["token", "renamePasskey", "logout", "me", "listPasskeys",
                                                                  "revoke", "listSessions", "changePassword", "deleteMe"]))
        #expect(try links("listSessions", "200").isSuperset(of: ["endSession", "revokeOtherSessions", "deleteMe"]))
        #expect(try links("endSession", "204") == ["deleteMe"])
        let create = try #require(operations.first { $0.operationID == "createAccount" })
        #expect(create.node["responses"]?["201"]?["links"]?.entries.first?.value["operationId"]?.text == "passwordLogin")
    }

    /// The documented length limits are the server's own constants.
    @Test func documentedLimitsAreTheServersConstants() throws {
        let document = try Self.document()
        func limit(_ schema: String, _ property: String, _ keyword: String) -> Int? {
            document.schema(schema)?["properties"]?[property]?[keyword]?.int
        }
        let policy = PasswordPolicy()
        #expect(limit("NewAccount", "username", "maxLength") == Username.maximumBytes)
        #expect(limit("NewAccount", "password", "minLength") == policy.minimumLength)
        #expect(limit("NewAccount", "password", "maxLength") == policy.maximumBytes)
        #expect(limit("LoginCredentials", "username", "maxLength") == Username.maximumBytes)
        #expect(limit("LoginCredentials", "password", "maxLength") == policy.maximumBytes)
        #expect(limit("RegistrationOptionsRequest", "username", "maxLength") == Username.maximumBytes)
        #expect(limit("PasskeyRename", "name", "maxLength") == PasskeyName.maximumBytes)
        #expect(limit("PasskeyRename", "name", "minLength") == 1)
        #expect(limit("RefreshRequest", "refresh_token", "minLength") == 1)
        #expect(limit("RevocationRequest", "token", "minLength") == 1)
        #expect(limit("PasswordChange", "new_password", "minLength") == policy.minimumLength)
        #expect(limit("PasswordChange", "new_password", "maxLength") == policy.maximumBytes)
        #expect(limit("PasswordChange", "current_password", "maxLength") == policy.maximumBytes)
        for schema in ["LoginCredentials", "AuthenticationResponseJSON", "RegistrationResponseJSON", "AppleSignInRequest"] {
            #expect(limit(schema, "device_name", "maxLength") == DeviceName.maximumBytes, "\(schema)")
        }
        #expect(HTTPServerConfiguration(port: 0).maxBodyBytes == 64 * 1024)
        #expect(document.root["info"]?["description"]?.text?.contains("64 KiB") == true)
    }

    /// Login bounds are in Unicode code points, as JSON Schema's maxLength counts: a 256-character name of 3-byte
    /// characters and a 1024-character password of 2-byte characters are looked up (401), one more is 400.
    @Test func loginLimitsAreCountedAsTheDocumentCountsThem() async throws {
        guard let fixture = try await ServiceFixture.make() else { return }
        func login(_ username: String, _ password: String) async throws -> Int {
            let body = try JSONSerialization.data(withJSONObject: ["username": username, "password": password])
            return await fixture.request("POST", "/v1/session/password", json: String(decoding: body, as: UTF8.self)).status
        }
        #expect(try await login(String(repeating: "한", count: 256), "password") == 401)
        #expect(try await login(String(repeating: "한", count: 257), "password") == 400)
        #expect(try await login("alice", String(repeating: "é", count: 1024)) == 401)
        #expect(try await login("alice", String(repeating: "é", count: 1025)) == 400)
        #expect(try await login("", "password") == 400)
        #expect(try await login("alice", "") == 400)
    }

    @Test func documentedRoutesMatchTheServedRouteTable() async throws {
        let documented = Set(try Self.document().operations.map { "\($0.method) \($0.routerPath)" })
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

    static func request(_ operation: OpenAPIOperation, body: String?, contentType: String?,
                        declaredLength: Int? = nil) -> String {
        var request = "\(operation.method) \(operation.samplePath) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let contentType { request += "Content-Type: \(contentType)\r\n" }
        if let declaredLength { return request + "Content-Length: \(declaredLength)\r\n\r\n" }
        if let body { return request + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }
        return request + "\r\n"
    }

    /// Each operation, sent its test body, answers a documented status; each media type it documents is taken (not
    /// 415), another is 415 exactly where 415 is documented; a body over the limit is 413.
    @Test func everyOperationAnswersAsDocumented() async throws {
        let operations = try Self.document().operations
        let server = try await ServeProcess(Self.databaseArguments())
        for operation in operations {
            let name = "\(operation.method) \(operation.path)"
            let body = operation.testBody ?? (["GET", "DELETE", "HEAD"].contains(operation.method) ? nil : "{}")
            let answer = try await rawRequest(port: server.port, Self.request(
                operation, body: body, contentType: body == nil ? nil : operation.testContentType ?? "application/json"))
            #expect(operation.statuses.contains(answer.status),
                    "\(name) answered \(answer.status), documented \(operation.statuses.sorted())")
            if !operation.pathParameterNames.isEmpty {
                var undecodable = operation
                undecodable.path = operation.path.split(separator: "/", omittingEmptySubsequences: false).map { part in
                    part.hasPrefix("{") && part.hasSuffix("}") ? "%FF" : String(part)
                }.joined(separator: "/")
                let refused = try await rawRequest(port: server.port, Self.request(
                    undecodable, body: body, contentType: body == nil ? nil : operation.testContentType ?? "application/json"))
                #expect(refused.status == 400 && operation.statuses.contains(400), "\(name) with %FF: \(refused.status)")
            }
            guard operation.takesBody else { continue }
            for mediaType in operation.requestMediaTypes {
                let sample = mediaType == "application/json" ? "{}" : "a=b"
                let taken = try await rawRequest(port: server.port, Self.request(operation, body: sample, contentType: mediaType))
                #expect(taken.status != 415 && operation.statuses.contains(taken.status), "\(name) as \(mediaType): \(taken.status)")
            }
            let other = try await rawRequest(port: server.port, Self.request(operation, body: "x", contentType: "text/plain"))
            #expect((other.status == 415) == operation.statuses.contains(415), "\(name) as text/plain: \(other.status)")
            let large = try await rawRequest(port: server.port, Self.request(operation, body: nil, contentType: "application/json",
                                                                               declaredLength: 64 * 1024 + 1))
            #expect(large.status == 413, "\(name) with a body over the limit: \(large.status)")
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
