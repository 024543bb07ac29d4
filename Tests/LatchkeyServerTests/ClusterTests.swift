import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import LatchkeyWebAuthn
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// Three `latchkey serve` instances on one PostgreSQL behind nginx (scripts/cluster.sh), run as a user
/// deploys them: the cluster must behave as one server. Needs PostgreSQL and nginx (`make test` installs
/// both); skipped without them unless LATCHKEY_REQUIRE_SERVICES=1.
@Suite(.serialized, .offCooperativePool) struct ClusterTests {
    /// A running cluster and the ports of its parts.
    final class Cluster: Sendable {
        let directory: URL
        let environment: [String: String]
        let balancer: UInt16
        let instances: [UInt16]
        let databaseURL: String
        let script: String

        init?(serveArguments: String) throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            script = root.appendingPathComponent("scripts/cluster.sh").path
            let hasNginx = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
            let hasPostgres = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.isEmpty == false
            guard hasNginx, hasPostgres else {
                if ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1" {
                    Issue.record("the cluster tests need nginx and PostgreSQL")
                }
                return nil
            }
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-cluster-\(UUID().uuidString)")
            var env = ProcessInfo.processInfo.environment
            env["LATCHKEY_BIN"] = try ServeProcess.binary().path
            env["LATCHKEY_CLUSTER_SERVE_ARGS"] = serveArguments
            env["LATCHKEY_CLUSTER_POSTGRES"] = nil
            environment = env
            let started = try Self.run(script, ["start", directory.path], environment: env)
            guard started.status == 0 else {
                throw ServeProcessError.exitedEarly("cluster.sh start: \(started.output)")
            }
            var values: [String: String] = [:]
            for line in started.output.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { values[parts[0]] = parts[1] }
            }
            balancer = UInt16(values["NGINX_PORT"] ?? "") ?? 0
            instances = (1...3).compactMap { UInt16(values["INSTANCE_\($0)_PORT"] ?? "") }
            databaseURL = values["DATABASE_URL"] ?? ""
        }

        func control(_ arguments: [String]) throws -> (status: Int32, output: String) {
            try Self.run(script, [arguments[0], directory.path] + arguments.dropFirst(), environment: environment)
        }

        func stop() {
            _ = try? control(["stop"])
            try? FileManager.default.removeItem(at: directory)
        }

        /// Runs `bash tool arguments…` to completion (`SpawnedCommand`, not `Process`: the daemons the script leaves
        /// running — postgres, nginx, the instances — must hold no descriptor of this process).
        static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString).out")
            defer { try? FileManager.default.removeItem(at: output) }
            let status = try SpawnedCommand.run(["/bin/bash", tool] + arguments, environment: environment, outputPath: output.path)
            return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
        }
    }

    // MARK: HTTP

    static func post(_ port: UInt16, _ path: String, form: String? = nil, json: String? = nil, bearer: String? = nil)
        async throws -> RawResponse {
        let body = form ?? json ?? ""
        var text = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        text += "Content-Type: \(form != nil ? "application/x-www-form-urlencoded" : "application/json")\r\n"
        if let bearer { text += "Authorization: Bearer \(bearer)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return try await rawRequest(port: port, text)
    }

    static func get(_ port: UInt16, _ path: String, bearer: String? = nil) async throws -> RawResponse {
        var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let bearer { text += "Authorization: Bearer \(bearer)\r\n" }
        return try await rawRequest(port: port, text + "\r\n")
    }

    static func tokens(_ response: RawResponse) throws -> TokenResponse {
        try JSONDecoder().decode(TokenResponse.self, from: response.body)
    }

    static func refresh(_ port: UInt16, _ token: String) async throws -> RawResponse {
        try await post(port, "/v1/token", form: "grant_type=refresh_token&refresh_token=\(token)")
    }

    static func login(_ port: UInt16, _ user: String, _ password: String) async throws -> RawResponse {
        try await post(port, "/v1/session/password", json: #"{"username":"\#(user)","password":"\#(password)"}"#)
    }

    // MARK: Tests

    @Test func theClusterBehavesAsOneServer() async throws {
        guard let cluster = try Cluster(serveArguments: "--refresh-grace 10") else { return }
        defer { cluster.stop() }
        let (a, b, c) = (cluster.instances[0], cluster.instances[1], cluster.instances[2])
        try #require(cluster.instances.count == 3 && cluster.balancer != 0)

        // Password login on A, refresh on B, a replay of the first token on C (two generations back, outside
        // the grace window's one generation) revokes the family everywhere.
        #expect(try await Self.post(a, "/v1/accounts", json: #"{"username":"ann","password":"cluster pass 1"}"#).status == 201)
        let login = try await Self.login(a, "ann", "cluster pass 1")
        try #require(login.status == 200, "\(login.text)")
        let first = try Self.tokens(login)
        let second = try Self.tokens(try await Self.refresh(b, first.refreshToken!))
        let third = try Self.tokens(try await Self.refresh(a, second.refreshToken!))
        #expect(try await Self.get(c, "/v1/me", bearer: third.accessToken).status == 200, "a token from A verifies on C")
        let replay = try await Self.refresh(c, first.refreshToken!)
        #expect(replay.status == 400 && replay.text.contains("invalid_grant"))
        for port in [a, b, c] {
            #expect(try await Self.get(port, "/v1/me", bearer: third.accessToken).status == 401, "the family is revoked on \(port)")
            #expect(try await Self.refresh(port, third.refreshToken!).status == 400)
        }

        // Failed logins spread over the three instances count exactly as on one server (the counters live in
        // the database), and the lockout they lead to holds on every instance, even for the right password.
        let database = try PostgresDatabase(conninfo: cluster.databaseURL, poolSize: 1)
        for (user, ports) in [("bob-one", [a]), ("bob-three", [a, b, c])] {
            #expect(try await Self.post(ports[0], "/v1/accounts", json: #"{"username":"\#(user)","password":"cluster pass 2"}"#).status == 201)
            for attempt in 0..<6 {
                #expect(try await Self.login(ports[attempt % ports.count], user, "wrong \(attempt)").status == 401)
            }
        }
        let alone = try database.throttleState(key: "user:bob-one")
        let spread = try database.throttleState(key: "user:bob-three")
        #expect(alone?.failures == 6 && spread?.failures == 6, "one instance: \(String(describing: alone)), three: \(String(describing: spread))")
        // On to the lockout (10 failures), waiting out each growing delay as a client told Retry-After would.
        var failures = 6, attempt = 6
        while failures < 10, attempt < 40 {
            let response = try await Self.login([a, b, c][attempt % 3], "bob-three", "wrong \(attempt)")
            attempt += 1
            if response.status == 401 { failures += 1; continue }
            #expect(response.status == 429)
            let wait = Int(response.headers["retry-after"] ?? "1") ?? 1
            try await Task.sleep(for: .milliseconds(wait * 1000 + 100))
        }
        #expect(failures == 10)
        for port in [a, b, c] {
            let locked = try await Self.login(port, "bob-three", "cluster pass 2")
            #expect(locked.status == 429, "locked out on \(port): \(locked.text)")
            #expect((Int(locked.headers["retry-after"] ?? "0") ?? 0) > 60, "the 15-minute lockout")
        }

        // A passkey challenge issued by A is accepted once by B and refused by C.
        let origin = "http://localhost:\(cluster.balancer)"
        let authenticator = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let options = try await Self.post(a, "/v1/passkeys/register/options", json: #"{"username":"carol"}"#)
        try #require(options.status == 200, "\(options.text)")
        let envelope = try JSONDecoder().decode(OptionsEnvelopeForTests<PublicKeyCredentialCreationOptions>.self, from: options.body)
        let credential = String(decoding: try JSONEncoder().encode(try authenticator.register(envelope.publicKey, origin: origin)),
                                as: UTF8.self)
        let accepted = try await Self.post(b, "/v1/passkeys/register/verify", json: credential)
        #expect((200...201).contains(accepted.status), "\(accepted.text)")
        let again = try await Self.post(c, "/v1/passkeys/register/verify", json: credential)
        #expect((400...499).contains(again.status), "a used challenge is refused on another instance: \(again.text)")

        // A key rotated by one instance is published by all (within --key-reload 2 s), and tokens signed by
        // the old and the new key verify on every instance.
        let before = try Self.tokens(try await Self.login(b, "ann", "cluster pass 1"))
        let ring = try SigningKeyRing(database: database, clock: SystemClock(), accessTokenLifetime: 900, clockSkew: 60,
                                      rotationInterval: 30 * 86_400)
        try ring.rotate()
        let newKID = try ring.activeKeyID
        try await Task.sleep(for: .seconds(3))
        for port in [a, b, c] {
            let jwks = try await Self.get(port, "/.well-known/jwks.json")
            #expect(jwks.text.contains(newKID), "instance \(port) publishes the new key")
            #expect(try await Self.get(port, "/v1/me", bearer: before.accessToken).status == 200, "old-key token on \(port)")
        }
        let after = try Self.tokens(try await Self.login(c, "ann", "cluster pass 1"))
        let header = try #require(after.accessToken.split(separator: ".").first.flatMap { Data(base64URLEncoded: String($0)) })
        #expect(String(decoding: header, as: UTF8.self).contains(newKID), "C signs with the key rotated elsewhere")
        for port in [a, b] {
            #expect(try await Self.get(port, "/v1/me", bearer: after.accessToken).status == 200, "new-key token on \(port)")
        }
    }

    @Test func concurrentRotationsCreateExactlyOneKey() async throws {
        guard let cluster = try Cluster(serveArguments: "") else { return }
        defer { cluster.stop() }
        let url = cluster.databaseURL
        let before = try PostgresDatabase(conninfo: url, poolSize: 1).signingKeys().count
        // Eight "instances" find the key due at the same moment (interval 1 s; one frozen clock 2 s ahead, so
        // thread start-up spread across a second boundary cannot make a second rotation legitimately due): one rotates.
        let clock = ManualClock(Date().addingTimeInterval(2))
        let rotated = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await onThread {
                        let ring = try SigningKeyRing(database: try PostgresDatabase(conninfo: url, poolSize: 1), clock: clock,
                                                      accessTokenLifetime: 900, clockSkew: 60, rotationInterval: 1)
                        return try ring.rotateIfDue()
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(rotated.filter { $0 }.count == 1, "\(rotated)")
        let keys = try PostgresDatabase(conninfo: url, poolSize: 1).signingKeys()
        #expect(keys.count == before + 1)
        #expect(keys.filter { $0.retiredAt == nil }.count == 1, "one active key")
    }

    /// Clients doing refresh chains through nginx while an instance is SIGKILLed and PostgreSQL restarts:
    /// they retry on errors (the grace window makes a retry after a lost response safe) and every chain
    /// completes with a working session — no committed refresh lost, no family left inconsistent.
    @Test func refreshesSurviveAnInstanceCrashAndAPostgresRestart() async throws {
        guard let cluster = try Cluster(serveArguments: "--refresh-grace 10 --db-timeout-ms 2000") else { return }
        defer { cluster.stop() }
        let port = cluster.balancer
        let clients = 6, steps = 40
        var starts: [TokenResponse] = []
        for i in 0..<clients {
            #expect(try await Self.post(port, "/v1/accounts", json: #"{"username":"user\#(i)","password":"cluster pass \#(i)"}"#).status == 201)
            starts.append(try Self.tokens(try await Self.login(port, "user\(i)", "cluster pass \(i)")))
        }
        let statuses = StatusCounts()
        let results = try await withThrowingTaskGroup(of: (Int, TokenResponse?).self) { group in
            for (index, start) in starts.enumerated() {
                let first = start
                group.addTask {
                    var current = first
                    for _ in 0..<steps {
                        var next: TokenResponse?
                        for _ in 0..<40 where next == nil {
                            if let response = try? await Self.refresh(port, current.refreshToken!) {
                                statuses.counts.withLock { $0[response.status, default: 0] += 1 }
                                if response.status == 200 { next = try? Self.tokens(response); continue }
                                if response.status == 400 { return (index, nil) } // revoked: the property is broken
                            }
                            try await Task.sleep(for: .milliseconds(250))
                        }
                        guard let next else { return (index, nil) }
                        current = next
                        try await Task.sleep(for: .milliseconds(60))
                    }
                    return (index, current)
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(500))
                _ = try cluster.control(["kill-instance", "2"])
                try await Task.sleep(for: .milliseconds(700))
                _ = try cluster.control(["restart-postgres"])
                try await Task.sleep(for: .milliseconds(600))
                _ = try cluster.control(["start-instance", "2"])
                return (-1, nil)
            }
            return try await group.reduce(into: [(Int, TokenResponse?)]()) { $0.append($1) }
        }
        let seen = statuses.counts.withLock { $0 }
        print("cluster faults: statuses seen \(seen.sorted { $0.key < $1.key })")
        let finished = results.filter { $0.0 >= 0 }
        #expect(finished.count == clients)
        for (index, last) in finished {
            let last = try #require(last, "client \(index): its chain broke (family revoked or never recovered)")
            var status = 0
            for _ in 0..<20 {
                status = (try? await Self.get(port, "/v1/me", bearer: last.accessToken))?.status ?? 0
                if status == 200 || status == 401 { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            #expect(status == 200, "client \(index): the session of its last token works")
        }
        #expect((seen[500] ?? 0) == 0, "no 500s: transient database failures answer 503")
        #expect(seen.keys.contains { $0 != 200 }, "the faults were felt (503 or 502 while PostgreSQL restarted)")
    }
}

/// HTTP statuses seen by concurrent clients.
final class StatusCounts: Sendable {
    let counts = Locked<[Int: Int]>([:])
}
