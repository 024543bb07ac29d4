import Foundation
import Testing
import LatchkeyCrypto
@testable import LatchkeyServer

/// Cheap Argon2id parameters for tests (the real defaults are OWASP's; speed is measured in latchkey-bench).
let testArgon2 = Argon2id.Parameters(memoryKiB: 64, iterations: 1)

/// A service on a fresh database with a manual clock.
struct ServiceFixture: Sendable {
    let test: TestDatabase
    let clock: ManualClock
    let service: AuthService
    let router: Router

    static func make(_ engine: StorageEngine = .sqlite, configuration: AuthConfiguration = AuthConfiguration(),
                     hasher: (any PasswordHasher)? = nil, encryptionKey: SymmetricKey? = nil) async throws -> ServiceFixture? {
        guard let test = try makeTestDatabase(engine) else { return nil }
        let clock = ManualClock()
        let service = try AuthService(database: test.database, configuration: configuration, clock: clock,
                                            passwordHasher: hasher ?? Argon2PasswordHasher(parameters: testArgon2),
                                            signingKeyEncryptionKey: encryptionKey)
        return ServiceFixture(test: test, clock: clock, service: service, router: Router(service.routes()))
    }

    /// A second service (another "server process") on the same database and clock.
    func sibling() async throws -> AuthService {
        try AuthService(database: try test.openAnother(), configuration: service.configuration, clock: clock,
                              passwordHasher: Argon2PasswordHasher(parameters: testArgon2))
    }

    func request(_ method: String, _ path: String, json: String? = nil, form: String? = nil, bearer: String? = nil,
                 ip: String = "127.0.0.1") async -> HTTPResponse {
        var headers: [String: String] = [:]
        var body = Data()
        if let json { headers["Content-Type"] = "application/json"; body = Data(json.utf8) }
        if let form { headers["Content-Type"] = "application/x-www-form-urlencoded"; body = Data(form.utf8) }
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return await router.handle(HTTPRequest(method: method, path: path, headers: headers, body: body, remoteAddress: ip))
    }

    func login(_ username: String = "alice", _ password: String = "correct horse", ip: String = "127.0.0.1") async -> HTTPResponse {
        await request("POST", "/v1/session/password", json: #"{"username":"\#(username)","password":"\#(password)"}"#, ip: ip)
    }

    @discardableResult
    func createAlice() async throws -> AccountInfo {
        try await service.createAccount(username: "alice", password: "correct horse")
    }
}

extension HTTPResponse {
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    var errorCode: String? { json["error"] as? String }
    func tokens() throws -> TokenResponse { try JSONDecoder().decode(TokenResponse.self, from: body) }
}

/// Percent-encodes a form value.
func formValue(_ s: String) -> String {
    s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? s
}
