import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
@testable import LatchkeyServer

/// HTTP/1.1 requests to a live server, one connection each.
enum LiveHTTP {
    static func send(_ port: UInt16, _ method: String, _ path: String, json: String? = nil, form: String? = nil,
                     bearer: String? = nil, headers: [String: String] = [:]) async throws -> RawResponse {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        let body = json ?? form
        if json != nil { text += "Content-Type: application/json\r\n" }
        if form != nil { text += "Content-Type: application/x-www-form-urlencoded\r\n" }
        if let bearer { text += "Authorization: Bearer \(bearer)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        return try await rawRequest(port: port, text + "\r\n" + (body ?? ""))
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    static func login(_ port: UInt16, _ username: String, _ password: String, deviceName: String? = nil,
                      bearer: String? = nil, headers: [String: String] = [:]) async throws -> RawResponse {
        var body: [String: Any] = ["username": username, "password": password]
        if let deviceName { body["device_name"] = deviceName }
        return try await send(port, "POST", "/v1/session/password", json: json(body), bearer: bearer, headers: headers)
    }

    static func refresh(_ port: UInt16, _ token: String) async throws -> RawResponse {
        try await send(port, "POST", "/v1/token", form: "grant_type=refresh_token&refresh_token=\(token)")
    }
}

extension RawResponse {
    var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
    var error: String? { object["error"] as? String }
    func tokens() throws -> TokenResponse {
        try #require(status == 200, "\(status) \(text)")
        return try JSONDecoder().decode(TokenResponse.self, from: body)
    }
}

/// Issue 32's acceptance, live: one `latchkey serve` on SQLite, driven over HTTP as an app would.
@Suite("Account lifecycle, live", .serialized, .offCooperativePool)
struct AccountLifecycleLiveTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-lifecycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func sid(_ accessToken: String) throws -> String {
        let payload = try #require(AccessTokenCodec.split(accessToken)?.payload)
        return try #require((try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["sid"] as? String)
    }

    @Test func sessionsPasswordChangeStepUpAndDeletion() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let clockOffset = directory.appendingPathComponent("clock-offset")
        let server = try await ServeProcess(["--database", "sqlite:" + path, "--clock-offset-file", clockOffset.path])
        let port = server.port
        let database = try SQLiteDatabase(path: path)
        let before = try SchemaCensus(database)

        // An account, signed in on two devices.
        let created = try await LiveHTTP.send(port, "POST", "/v1/accounts",
                                              json: #"{"username":"Mina","password":"first password"}"#)
        #expect(created.status == 201)
        let accountID = try #require(created.object["id"] as? String)
        let phone = try await LiveHTTP.login(port, "Mina", "first password", deviceName: "Mina's iPhone").tokens()
        let laptop = try await LiveHTTP.login(port, "mina", "first password",
                                              headers: ["User-Agent": "Mozilla/5.0 (X11; Linux x86_64)"]).tokens()
        let listed = try await LiveHTTP.send(port, "GET", "/v1/sessions", bearer: phone.accessToken)
        let sessions = try #require(listed.object["sessions"] as? [[String: Any]])
        #expect(sessions.count == 2)
        #expect(sessions.filter { $0["current"] as? Bool == true }.map { $0["id"] as? String } == [try Self.sid(phone.accessToken)])
        #expect(Set(sessions.compactMap { $0["device_name"] as? String }) == ["Mina's iPhone", "Mozilla/5.0 (X11; Linux x86_64)"])
        #expect(sessions.allSatisfy { $0["client_address"] as? String == "127.0.0.1" && $0["sign_in_method"] as? String == "password" })

        // The phone ends the laptop's session: its refresh token is refused at once.
        let laptopID = try Self.sid(laptop.accessToken)
        #expect(try await LiveHTTP.send(port, "DELETE", "/v1/sessions/\(laptopID)", bearer: phone.accessToken).status == 204)
        let refused = try await LiveHTTP.refresh(port, try #require(laptop.refreshToken))
        #expect(refused.status == 400 && refused.error == "invalid_grant")

        // A password change: the old password is refused, the new one works.
        let change = LiveHTTP.json(["current_password": "first password", "new_password": "second password"])
        #expect(try await LiveHTTP.send(port, "POST", "/v1/me/password", json: change, bearer: phone.accessToken).status == 204)
        #expect(try await LiveHTTP.login(port, "Mina", "first password").status == 401)
        let other = try await LiveHTTP.login(port, "Mina", "second password").tokens()

        // The server's clock moves past the step-up max age (300 s): deletion asks for a fresh sign-in.
        try Data("301".utf8).write(to: clockOffset, options: .atomic)
        let challenged = try await LiveHTTP.send(port, "DELETE", "/v1/me", bearer: phone.accessToken)
        #expect(challenged.status == 401 && challenged.error == "insufficient_user_authentication")
        #expect(challenged.object["max_age"] as? Int == 300)
        let header = try #require(challenged.headers["www-authenticate"])
        #expect(header.contains(#"error="insufficient_user_authentication""#) && header.hasSuffix("max_age=300"))

        // Sign in again with the phone's token (a step-up of its session), then delete: the sign-in is recent for the
        // next 300 s of the server's clock, however slow the machine.
        let stepped = try await LiveHTTP.login(port, "Mina", "second password", bearer: phone.accessToken).tokens()
        #expect(try Self.sid(stepped.accessToken) == Self.sid(phone.accessToken), "the same session")
        let token = stepped.accessToken
        let deleted = try await LiveHTTP.send(port, "DELETE", "/v1/me", bearer: token)
        #expect(deleted.status == 204)

        // No row of the account in any table (every table, read from the schema): each table holds what it held before
        // the account existed, but for the audit log's account_deleted record and the per-address throttle row of
        // the wrong password (an address, not the account).
        let after = try SchemaCensus(database)
        #expect(before.changes(to: after) == ["audit_events": "0 → 1", "login_throttle": "0 → 1"], "\(before)\n\(after)")
        let traces = try SchemaCensus.rows(containing: ["Mina", "mina", try Self.sid(phone.accessToken), laptopID,
                                                        try Self.sid(other.accessToken)], in: database)
        #expect(traces.isEmpty, "\(traces)")
        #expect(try SchemaCensus.rows(containing: [accountID], in: database).mapValues(\.count) == ["audit_events": 1],
                "the random id only in the account_deleted record")

        // Sign-in, refresh and GET /v1/me are refused; a repeated DELETE is 401.
        #expect(try await LiveHTTP.login(port, "Mina", "second password").status == 401)
        #expect(try await LiveHTTP.refresh(port, try #require(other.refreshToken)).status == 400)
        #expect(try await LiveHTTP.send(port, "GET", "/v1/me", bearer: token).status == 401)
        #expect(try await LiveHTTP.send(port, "GET", "/v1/me", bearer: other.accessToken).status == 401)
        #expect(try await LiveHTTP.send(port, "DELETE", "/v1/me", bearer: token).status == 401)
        #expect(try await server.stop() == 0)
    }

    /// The Sign in with Apple side: `latchkey serve` with a team key and a token key, against the stand-in in this
    /// process (which checks client secrets against the team's public key and records revocations).
    struct AppleSetup {
        static let clientID = "org.latchkey.lifecycle"
        let directory: URL
        let team = AppleTestTeam()
        let standIn: AppleIDStandIn

        init() throws {
            directory = try AccountLifecycleLiveTests.scratch()
            standIn = try team.standIn(clientIDs: [Self.clientID])
            try team.key.pemRepresentation.write(to: directory.appendingPathComponent("team.p8"), atomically: true, encoding: .utf8)
            try SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
                .write(to: directory.appendingPathComponent("token.key"), atomically: true, encoding: .utf8)
        }

        var databasePath: String { directory.appendingPathComponent("server.sqlite").path }

        var serveArguments: [String] {
            ["--database", "sqlite:" + databasePath, "--apple-client-id", Self.clientID,
             "--apple-base-url", standIn.baseURL.absoluteString, "--apple-team-id", team.teamID, "--apple-key-id", team.keyID,
             "--apple-key-file", directory.appendingPathComponent("team.p8").path,
             "--apple-token-key-file", directory.appendingPathComponent("token.key").path, "--apple-revocation-retry", "1"]
        }

        /// A device's Sign in with Apple through the stand-in, handed to the server: the user's `sub` and the tokens.
        func signIn(_ port: UInt16, appleID: String) async throws -> (subject: String, tokens: TokenResponse) {
            let nonce = UUID().uuidString
            let authorization = try standIn.authorize(.init(clientID: Self.clientID, appleID: appleID,
                                                            nonce: SHA256.hash(data: Data(nonce.utf8)).hexString))
            let body = LiveHTTP.json(["identity_token": authorization.identityToken, "raw_nonce": nonce,
                                      "authorization_code": authorization.authorizationCode, "device_name": "iPad"])
            let answer = try await LiveHTTP.send(port, "POST", "/v1/session/apple", json: body)
            return (authorization.user, try answer.tokens())
        }

        /// Waits (no time bound but a generous count of short sleeps) until the stand-in recorded `subject`'s revocation.
        func revocation(of subject: String) async throws -> AppleIDStandIn.Revocation? {
            for _ in 0..<12_000 {
                if let found = standIn.revocations.first(where: { $0.user == subject }) { return found }
                try await Task.sleep(for: .milliseconds(25))
            }
            return nil
        }

        func cleanup() {
            standIn.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func deletingASignInWithAppleAccountRevokesItsTokenEvenWhenAppleIsDown() async throws {
        let apple = try AppleSetup()
        defer { apple.cleanup() }
        var server = try await ServeProcess(apple.serveArguments)

        // Apple reachable: the deletion revokes the token with the team's client secret.
        let (first, tokens) = try await apple.signIn(server.port, appleID: "ada@example.com")
        #expect(try await LiveHTTP.send(server.port, "DELETE", "/v1/me", bearer: tokens.accessToken).status == 204)
        let revoked = try await apple.revocation(of: first)
        #expect(revoked?.clientID == AppleSetup.clientID && revoked?.tokenTypeHint == "refresh_token")
        #expect(apple.standIn.credentialState(user: first, clientID: AppleSetup.clientID) == "revoked")

        // Apple down during the deletion: it still succeeds; the revocation waits in the database across a restart of the
        // server and goes out once Apple is back.
        let (second, more) = try await apple.signIn(server.port, appleID: "grace@example.com")
        apple.standIn.stop()
        #expect(try await LiveHTTP.send(server.port, "DELETE", "/v1/me", bearer: more.accessToken).status == 204)
        #expect(try await server.stop() == 0)
        let database = try SQLiteDatabase(path: apple.databasePath)
        #expect(try database.pendingAppleRevocations() == 1)
        #expect(!apple.standIn.revocations.contains { $0.user == second })
        try apple.standIn.start()
        server = try await ServeProcess(apple.serveArguments)
        let late = try await apple.revocation(of: second)
        #expect(late?.clientID == AppleSetup.clientID)
        for _ in 0..<12_000 where try database.pendingAppleRevocations() > 0 { try await Task.sleep(for: .milliseconds(25)) }
        #expect(try database.pendingAppleRevocations() == 0, "the row goes once Apple answered 200")
        #expect(try await server.stop() == 0)
    }
}
