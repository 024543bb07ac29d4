import Foundation
import LatchkeySupport
import Testing
@testable import Latchkey

/// The kit's `AccountManager` (this test module has Apple's sample `AccountManager` of its own).
typealias KitAccountManager = Latchkey.AccountManager

/// A real `latchkey serve` (SQLite) for the account tests, with password accounts made through its API and signed in
/// through `PasswordSessionClient` (each sign-in a session of its own, named `deviceName`).
struct AccountServer {
    let server: ServerProcess
    /// How recent a sign-in the server wants before a sensitive request (`--step-up-max-age`).
    let stepUpMaxAge: Int

    /// Starts `latchkey serve --step-up-max-age stepUpMaxAge` (default: the server's 300 s, so nothing steps up until
    /// `passStepUpMaxAge()`).
    init(stepUpMaxAge: Int = 300, arguments: [String] = []) async throws {
        self.stepUpMaxAge = stepUpMaxAge
        server = try await ServerProcess(binary: try LatchkeyBinary.required(),
                                   arguments: ["--step-up-max-age", String(stepUpMaxAge)] + arguments)
    }

    var baseURL: URL { server.baseURL }

    func stop() { server.stop() }

    /// A fresh user name.
    static func username(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())" }

    /// Creates a password account.
    func createAccount(_ username: String, password: String) async throws {
        let created = try await server.request("POST", "v1/accounts", json: ["username": username, "password": password])
        try #require(created.status == 201, "account creation: \(created.status) \(created.body)")
    }

    /// The password every test account has.
    static let password = "correct horse battery staple"

    /// A new password account (`prefix-<random>`), signed in on `deviceName`: its name, the sign-in's tokens, and a
    /// token manager holding them.
    func signedInAccount(_ prefix: String, deviceName: String = "Phone") async throws
        -> (name: String, grant: TokenGrant, tokens: TokenManager) {
        let name = Self.username(prefix)
        try await createAccount(name, password: Self.password)
        let grant = try await signIn(name, password: Self.password, deviceName: deviceName)
        return (name, grant, try await tokens(grant))
    }

    /// Signs in with the password: a new session named `deviceName`.
    func signIn(_ username: String, password: String, deviceName: String) async throws -> TokenGrant {
        try await PasswordSessionClient(baseURL: baseURL, deviceName: deviceName)
            .signIn(username: username, password: password)
    }

    /// A token manager in memory holding `grant`, refreshing at this server.
    func tokens(_ grant: TokenGrant) async throws -> TokenManager {
        let manager = TokenManager(storage: MemoryTokenStorage(),
                                   refresher: OAuthTokenRefresher(tokenEndpoint: baseURL.appendingPathComponent("v1/token")))
        try await manager.store(grant)
        return manager
    }

    /// The answer to a refresh with `refreshToken`: "200", or "400 invalid_grant" once its session ended.
    func refresh(_ refreshToken: String?) async throws -> String {
        let answer = try await server.request("POST", "v1/token",
                                              json: ["grant_type": "refresh_token", "refresh_token": refreshToken ?? ""])
        return ["\(answer.status)", answer.body["error"] as? String].compactMap { $0 }.joined(separator: " ")
    }

    /// Moves the server's clock past the step-up max age: a sign-in made before is now too old for a sensitive
    /// request, and one made after is recent for the next `stepUpMaxAge` seconds, whatever the machine's speed.
    func passStepUpMaxAge() throws {
        try server.advanceClock(by: Int64(stepUpMaxAge) + 1)
    }

    /// A re-authentication with the password, counting the prompts (`nil`: the user cancels).
    static func password(_ server: AccountServer, _ password: String?, prompts: Prompts) -> AccountReauthentication {
        .password(PasswordSessionClient(baseURL: server.baseURL)) { username in
            prompts.record(username)
            return password
        }
    }

    /// The user names re-authentication prompts were shown for.
    final class Prompts: Sendable {
        private let shown = Locked<[String]>([])
        func record(_ username: String) { shown.withLock { $0.append(username) } }
        var usernames: [String] { shown.withLock { $0 } }
    }
}
