import Foundation
import LatchkeyServer
import LatchkeySupport

// Scale-out figures: refresh req/s and login/s through nginx (round-robin) for 1 and for 3 `latchkey serve`
// instances on the same PostgreSQL (scripts/cluster.sh), and the ratio 3 : 1. Refresh is bound by the
// database's serialized rotations; login by Argon2id, i.e. by cores (2 here: three instances cannot beat one
// by much on this machine — the figure shows what the same cores give when spread over processes).

enum ClusterBenchmarks {
    static let measurements: [Measurement] = [
        Measurement(name: "cluster refresh and login, 1 vs 3 instances (PostgreSQL + nginx)") { try run() },
    ]

    /// Seconds without a request before the last burst: just past the instances' inactivity timeout (10 s).
    static let lull = Double(HTTPServerConfiguration(port: 0).connectionTimeout) + 0.3

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run() throws -> [String] {
        guard LoadGenerator.isAvailable else {
            return [LoadGenerator.notRun("cluster")]
        }
        let latchkey = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("latchkey").path
        guard FileManager.default.isExecutableFile(atPath: latchkey) else {
            Outcomes.miss("cluster: not run, \(latchkey) missing")
            return ["cluster: NOT RUN (\(latchkey) missing: `swift build -c release` first, as `make bench` does)"]
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            Outcomes.miss("cluster: not run, nginx missing")
            return ["cluster: NOT RUN (nginx missing: apt-get install -y nginx-light, or run `make bench`)"]
        }
        var refresh: [Int: LoadResult] = [:]
        var login: [Int: LoadResult] = [:]
        var afterLull: LoadResult?
        var diagnostics: [String] = []
        for instances in [1, 3] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-bench-cluster-\(UUID().uuidString)")
            defer {
                _ = try? control(["stop", directory.path], latchkey: latchkey)
                try? FileManager.default.removeItem(at: directory)
            }
            let started = try control(["start", directory.path, String(instances)], latchkey: latchkey)
            guard started.status == 0 else { return ["cluster: cluster.sh start failed: \(started.output.suffix(400))"] }
            let values = Dictionary(started.output.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }, uniquingKeysWith: { $1 })
            guard let port = values["NGINX_PORT"], let databaseURL = values["DATABASE_URL"] else { return ["cluster: no ports"] }
            let url = "http://127.0.0.1:\(port)"
            let database = try PostgresDatabase(conninfo: databaseURL, poolSize: 2)
            // 12,000 tokens for the main run, 4,000 others for the burst after the lull (3 instances).
            let tokens = try AuthBenchServer.issueSessions(instances == 3 ? 16_000 : 12_000, in: database)
            refresh[instances] = try LoadGenerator.run(url: url + "/v1/token", connections: 32, seconds: 3, threads: 2,
                                                       script: AuthBenchmarks.refreshScript(tokens: Array(tokens.prefix(12_000)), threads: 2))
            try createAccount(database: database)
            login[instances] = try LoadGenerator.run(url: url + "/v1/session/password", connections: 8, seconds: 3, method: "POST",
                                                     body: #"{"username":"bench","password":"correct horse battery"}"#)
            if instances == 3 {
                // Every connection nginx keeps to the instances idles past their inactivity timeout, then a burst:
                // nginx must have closed them first (its upstream keepalive_timeout), or it sends requests on
                // connections the instances are closing (a POST that reached one comes back 502).
                Thread.sleep(forTimeInterval: lull)
                afterLull = try LoadGenerator.run(url: url + "/v1/token", connections: 32, seconds: 1, threads: 2,
                                                  script: AuthBenchmarks.refreshScript(tokens: Array(tokens.suffix(4_000)), threads: 2))
            }
            if (refresh[instances]?.errors ?? 0) + (login[instances]?.errors ?? 0) + (instances == 3 ? afterLull?.errors ?? 0 : 0) > 0 {
                diagnostics += errorLogs(directory, instances: instances)
            }
        }
        guard let r1 = refresh[1], let r3 = refresh[3], let l1 = login[1], let l3 = login[3], let afterLull else { return [] }
        let errors = [r1, r3, l1, l3, afterLull].map(\.errors).reduce(0, +)
        return [
            "cluster through nginx round-robin on one PostgreSQL (refresh: 32 connections; login: 8 connections; wrk 3 s):",
            "  refresh, 1 instance            \(r1.summary)",
            "  refresh, 3 instances           \(r3.summary)",
            String(format: "  refresh 3 : 1                  %.2fx", r3.requestsPerSecond / max(r1.requestsPerSecond, 1)),
            "  login (Argon2id), 1 instance   \(l1.summary)",
            "  login (Argon2id), 3 instances  \(l3.summary)",
            String(format: "  login 3 : 1                    %.2fx (bound by %d cores)", l3.requestsPerSecond / max(l1.requestsPerSecond, 1),
                   ProcessInfo.processInfo.activeProcessorCount),
            String(format: "  refresh after a %.1f s lull, 3 instances (wrk 1 s)", lull),
            "                                 \(afterLull.summary)",
            "  " + verdict("cluster refresh and login: no request lost", errors == 0, "0 errors of any kind"),
        ] + diagnostics
    }

    /// What nginx and the instances logged about failed requests (up to 20 lines each), for a run with errors.
    static func errorLogs(_ directory: URL, instances: Int) -> [String] {
        var lines: [String] = []
        let files = ["nginx-error.log"] + (1...instances).map { "instance-\($0).log" }
        for file in files {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else { continue }
            let interesting = text.split(separator: "\n").filter { line in
                !line.contains("listening on") && !line.hasPrefix("warning:")
            }.suffix(20)
            guard !interesting.isEmpty else { continue }
            lines.append("  \(instances) instance(s), \(file):")
            lines += interesting.map { "    " + $0 }
        }
        return lines
    }

    /// The login account, created through the service so its password hash is the server's.
    static func createAccount(database: any Database) throws {
        var configuration = AuthConfiguration()
        configuration.ipThrottle = LoginThrottlePolicy(freeFailures: 1_000_000, lockoutThreshold: 0)
        let service = try AuthService(database: database, configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            _ = try? await service.createAccount(username: "bench", password: "correct horse battery")
            done.signal()
        }
        done.wait()
    }

    /// Runs scripts/cluster.sh with its output in a file (the daemons it starts must not hold a pipe).
    static func control(_ arguments: [String], latchkey: String) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-bench-cluster-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var environment = ProcessInfo.processInfo.environment
        environment["LATCHKEY_BIN"] = latchkey
        environment["LATCHKEY_CLUSTER_POSTGRES"] = nil
        let words: [String] = ["/bin/bash", root.appendingPathComponent("scripts/cluster.sh").path] + arguments
        guard let status = try? SpawnedCommand.run(words, environment: environment, outputPath: output.path) else {
            throw LoadGeneratorError.failed("spawn cluster.sh")
        }
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
