import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// A throwaway PostgreSQL cluster of this test's own (initdb + pg_ctl in a temp directory, as
/// scripts/with-services.sh makes the shared one), so stopping it disturbs no other test.
final class ThrowawayPostgres: Sendable {
    static let bin: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        guard let newest = versions.last else { return nil }
        let bin = root + "/" + newest + "/bin"
        return FileManager.default.isExecutableFile(atPath: bin + "/pg_ctl") ? bin : nil
    }()
    let directory: String
    let port: Int
    var conninfo: String { "host=127.0.0.1 port=\(port) user=postgres dbname=postgres connect_timeout=2" }

    /// Runs a command (as the `postgres` user when this is root) to completion (`SpawnedCommand`: Foundation's
    /// Process waits on a run loop, which blocks inside Swift concurrency, and postgres must inherit no descriptor).
    @discardableResult
    static func run(_ arguments: [String]) -> Int32 {
        let argv = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
        return (try? SpawnedCommand.run(argv)) ?? -1
    }

    init(bin: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-pg-\(randomHex(6))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0, let owner = getpwnam("postgres") { chown(directory, owner.pointee.pw_uid, owner.pointee.pw_gid) }
        port = Int.random(in: 40_000...60_000)
        Self.run(["\(bin)/initdb", "-D", "\(directory)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8"])
        start()
    }

    func start() {
        guard let bin = Self.bin else { return }
        Self.run(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", Self.waitSeconds, "-o",
                      "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c fsync=off", "start"])
    }

    /// How long `pg_ctl -w` waits for the server to start or stop: not its default 60 s, which a loaded machine
    /// exceeded (the test then found nothing listening); only a server that hangs takes this long.
    static let waitSeconds = "3600"

    /// `-m immediate`: the server dies without waiting for clients, as on a crash.
    func stop() {
        guard let bin = Self.bin else { return }
        Self.run(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "-t", Self.waitSeconds, "stop"])
    }

    func destroy() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// PostgreSQL stopped mid-traffic (issue 14, part 3): requests are answered 503 with Retry-After, nothing
/// half-written survives, and the service works again once the database is back.
@Suite("Abuse: database outage", .serialized, .enabled(if: ThrowawayPostgres.bin != nil), .offCooperativePool)
struct DatabaseOutageTests {
    static func post(_ port: UInt16, _ path: String, json: String? = nil, form: String? = nil) async throws -> RawResponse {
        let (type, body) = json.map { ("application/json", $0) } ?? ("application/x-www-form-urlencoded", form ?? "")
        return try await rawRequest(port: port, "POST \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: \(type)\r\n"
                                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }

    @Test func postgresStoppedMidTrafficAnswers503AndLeavesNoPartialWrites() async throws {
        let postgres = try ThrowawayPostgres(bin: try #require(ThrowawayPostgres.bin))
        defer { postgres.destroy() }
        let database = try PostgresDatabase(conninfo: postgres.conninfo, poolSize: 4, acquireTimeoutMilliseconds: 2_000)
        let service = try AuthService(database: database, clock: ManualClock(),
                                      passwordHasher: Argon2PasswordHasher(parameters: testArgon2))
        _ = try await service.createAccount(username: "alice", password: "correct horse")
        let first = try await service.loginWithPassword(username: "alice", password: "correct horse", ip: "127.0.0.1")
        try await withTestServer(routes: service.routes()) { server in
            let port = server.port
            // Traffic: account creations and refresh rotations while the database is stopped under them.
            var refresh = try #require(first.refreshToken)
            var created: [String: Int] = [:]
            var rotations: [Int] = []
            for round in 0..<30 {
                if round == 10 { postgres.stop() }
                let name = "user\(round)"
                created[name] = try await Self.post(port, "/v1/accounts", json: #"{"username":"\#(name)","password":"correct horse"}"#).status
                let rotated = try await Self.post(port, "/v1/token", form: "grant_type=refresh_token&refresh_token=\(formValue(refresh))")
                rotations.append(rotated.status)
                if rotated.status == 200, let next = try JSONDecoder().decode(TokenResponse.self, from: rotated.body).refreshToken {
                    refresh = next
                }
                if round >= 10 {
                    let login = try await Self.post(port, "/v1/session/password", json: #"{"username":"alice","password":"correct horse"}"#)
                    #expect(login.status == 503, "login during the outage: \(login.status)")
                    #expect(login.headers["retry-after"].flatMap(Int.init) ?? 0 >= 1, "Retry-After")
                    #expect(login.text.contains("temporarily_unavailable"))
                }
            }
            let down = (10..<30).map { created["user\($0)"] ?? 0 }
            #expect(down.allSatisfy { $0 == 503 }, "creations during the outage: \(down)")
            #expect(rotations[10...].allSatisfy { $0 == 503 }, "rotations during the outage: \(Array(rotations[10...]))")
            #expect(try await rawRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").status == 200)
            print("abuse-figure outage: before \(Array(rotations[..<10])), during \(Set(down)) creations / \(Set(rotations[10...])) rotations")

            // Back up: every account is whole, the refresh family continues from the last acknowledged token.
            postgres.start()
            var recovered = 0
            for _ in 0..<20 where recovered == 0 {
                let status = try await Self.post(port, "/v1/session/password", json: #"{"username":"alice","password":"correct horse"}"#).status
                if status == 200 { recovered += 1 } else { try await Task.sleep(for: .milliseconds(250)) }
            }
            #expect(recovered == 1, "the service recovers once PostgreSQL is back")
            for round in 0..<30 {
                let name = "user\(round)"
                let account = try database.account(usernameKey: name)
                if round < 10 { #expect(created[name] == 201) }
                if created[name] == 201 {
                    #expect(account?.passwordHash.hasPrefix("$argon2id$") == true, "\(name) lost")
                } else {
                    #expect(account == nil, "\(name) was written although its creation answered \(created[name] ?? 0)")
                }
            }
            let next = try await Self.post(port, "/v1/token", form: "grant_type=refresh_token&refresh_token=\(formValue(refresh))")
            #expect(next.status == 200, "the last acknowledged refresh token still rotates: no half-rotated family")
        }
    }
}
