import Foundation

/// The passkey figures' bytes verified by py_webauthn (`verify_authentication_response`, `verify_registration_response`)
/// and by Latchkey's relying party, in interleaved rounds on one thread each, with the ratio of their rates.
///
/// The fixtures are written to a temporary file that `scripts/bench/py_webauthn_bench.py` reads; the script verifies
/// each once (a failure stops the comparison), then answers `calibrate NAME` (a batch lasting about a round) and
/// `round NAME BATCH` (nanoseconds per verification) on its standard input and output. The Python is the one
/// `LATCHKEY_BENCH_PY_WEBAUTHN` names: `make bench` installs py_webauthn, pinned, into `.build/py-webauthn-venv`
/// (scripts/bench/py-webauthn-venv.sh) and sets it.
enum PyWebAuthnComparison {
    struct Figure {
        let name: String
        /// Lowest accepted ratio of Latchkey's rate to py_webauthn's (issue 28), if any.
        let target: Double?
        let subject: @Sendable () throws -> Void
        /// The fixture as the script reads it.
        let export: [String: Any]
    }

    static let environmentVariable = "LATCHKEY_BENCH_PY_WEBAUTHN"

    /// The script, found from this source file (the benchmarks run on the machine that built them).
    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/bench/py_webauthn_bench.py")
    }

    static func run() throws -> [String] {
        let title = "passkey verify vs py_webauthn"
        guard let python = ProcessInfo.processInfo.environment[environmentVariable], !python.isEmpty,
              FileManager.default.isExecutableFile(atPath: python) else {
            Outcomes.miss("\(title) (NOT RUN: no py_webauthn)")
            return ["\(title): NOT RUN — `make bench` installs py_webauthn into .build/py-webauthn-venv and sets "
                    + "\(environmentVariable) to its python"]
        }
        let set = try PasskeyBenchmarks.fixtures.get()
        let figures = figures(set)
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-py-webauthn-\(UUID().uuidString).json")
        let document: [String: Any] = ["rp_id": PasskeyFixtures.relyingPartyID, "origin": PasskeyFixtures.origin,
                                       "figures": figures.map(\.export)]
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let peer = try LineProcess(executable: python, arguments: ["-u", script.path, file.path])
        defer { peer.close() }
        let ready = try peer.readLine()
        guard ready.hasPrefix("ready") else { throw BenchError.setUp("py_webauthn: \(ready)") }
        var lines = ["\(title) (\(ready.dropFirst("ready ".count)); the same bytes, one thread each, "
                     + "best of \(Harness.rounds) interleaved rounds):"]
        for figure in figures {
            try figure.subject()
            let batch = try Harness.calibrate(figure.subject)
            let pythonBatch = try peer.ask("calibrate \(figure.name)")
            var latchkey = Double.infinity, pyWebAuthn = Double.infinity
            for _ in 0..<Harness.rounds {
                latchkey = min(latchkey, try Harness.round(figure.subject, batch))
                pyWebAuthn = min(pyWebAuthn, Double(try peer.ask("round \(figure.name) \(pythonBatch)")) ?? .infinity)
            }
            let ratio = pyWebAuthn / latchkey
            var line = String(format: "  %@: latchkey %.0f/s  py_webauthn %.0f/s  ratio %.2fx", figure.name,
                              1e9 / latchkey, 1e9 / pyWebAuthn, ratio)
            if let target = figure.target {
                line += "  " + verdict("\(figure.name) vs py_webauthn", ratio >= target, "≥ \(target)x")
            }
            lines.append(line)
        }
        return lines
    }

    static func figures(_ set: PasskeyFixtures) -> [Figure] {
        func assertion(_ name: String, _ fixture: AssertionFixture, target: Double?) -> Figure {
            Figure(name: name, target: target, subject: set.subject(fixture), export: [
                "name": name, "kind": "authentication", "credential": String(decoding: fixture.json, as: UTF8.self),
                "challenge": fixture.challenge.base64URLEncodedString(),
                "public_key": fixture.credential.publicKey.base64URLEncodedString(),
                "sign_count": Int(fixture.credential.signCount),
            ])
        }
        func registration(_ name: String, _ fixture: RegistrationFixture, target: Double?) -> Figure {
            Figure(name: name, target: target, subject: set.subject(fixture), export: [
                "name": name, "kind": "registration", "credential": String(decoding: fixture.json, as: UTF8.self),
                "challenge": fixture.challenge.base64URLEncodedString(),
            ])
        }
        return [
            assertion("es256 assertion", set.es256, target: 2.0),
            assertion("rs256 assertion", set.rs256, target: nil),
            assertion("eddsa assertion", set.edDSA, target: nil),
            registration("packed self-attestation registration", set.packed, target: 1.5),
            registration("none registration", set.none, target: 1.5),
        ]
    }
}

/// A child process spoken to in lines on its standard input and output.
final class LineProcess {
    let process = Process()
    let input = Pipe(), output = Pipe()
    var buffer = Data()

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Sends `command` and returns the answer line; a line starting with "error" is thrown.
    func ask(_ command: String) throws -> String {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        let answer = try readLine()
        if answer.hasPrefix("error") { throw BenchError.setUp("py_webauthn: \(answer)") }
        return answer
    }

    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError.setUp("py_webauthn: the script ended") }
            buffer += chunk
        }
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
