import Foundation
import LatchkeyServer
import LatchkeySupport
import LatchkeyWebAuthn

/// The server's App Attest state under power cuts: a key's attestation, a challenge issued, and an assertion accepted
/// (the key's counter moves forward and the challenge is used up, in one transaction: a cut leaves both or neither, and
/// never a counter that went back — a replayed assertion would pass again).
package final class AppAttestPowercut: ServerDatabaseStore {
    package let name = "app-attest"
    package let operations = ["key attestation", "challenge", "assertion (counter update)"]

    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    /// `key:<id>` (its counter and last use), `challenge:<n>` (when it expires).
    private var rows = PowercutLedger<String>()
    private var counter = 0
    private static let expiry = ServerDatabasePowercut.epoch + 10_000_000

    package init() {}

    private var now: Int64 { ServerDatabasePowercut.epoch + Int64(counter) }

    package func prepare(in directory: URL) throws {
        self.directory = directory
        rows = PowercutLedger()
        counter = 0
        let database = try ServerDatabasePowercut.open(in: directory)
        for _ in 0..<2 {
            counter += 1
            _ = try database.insertAppAttestKey(key(counter))
            rows.set("key:\(counter)", "0 nil")
            try database.insertAppAttestChallenge(Self.challenge(counter), expiresAt: Self.expiry, now: now)
            rows.set("challenge:\(counter)", "\(Self.expiry)")
        }
    }

    /// Key number `n` as attested (counter 0).
    private func key(_ n: Int) -> AppAttestKeyRecord {
        AppAttestKeyRecord(keyID: Self.keyID(n), appID: "TEAMID1234.com.example.latchkey", environment: .development,
                           publicKey: Data(repeating: UInt8(truncatingIfNeeded: n), count: 77), counter: 0,
                           receipt: Data("receipt \(n)".utf8), createdAt: now)
    }

    private static func keyID(_ n: Int) -> Data { Data("app-attest-key-\(n)".utf8.prefix(32)) }
    private static func challenge(_ n: Int) -> Data { Data("challenge-\(n)".utf8) }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let n = counter, now = self.now
        let keys = rows.keys.filter { $0.hasPrefix("key:") }.sorted()
        let challenges = rows.keys.filter { $0.hasPrefix("challenge:") }.sorted()
        switch operation {
        case 2 where !keys.isEmpty && !challenges.isEmpty:
            let keyName = keys[trial.random(0..<keys.count)], challengeName = challenges[trial.random(0..<challenges.count)]
            guard let stored = rows[keyName]?.split(separator: " ").first.flatMap({ UInt32($0) }),
                  let keyNumber = Int(keyName.dropFirst("key:".count)),
                  let challengeNumber = Int(challengeName.dropFirst("challenge:".count)) else { return }
            let next = stored + UInt32(trial.random(1..<4))
            rows.begin([(keyName, "\(next) \(now)"), (challengeName, nil)])
            if trial.attempt("assertion", {
                let outcome = try database.acceptAppAttestAssertion(keyID: Self.keyID(keyNumber), counter: next,
                                                                    challenge: Self.challenge(challengeNumber), now: now)
                guard outcome == .accepted else { throw PowercutSimulator.Failure(description: "assertion: \(outcome)") }
            }) {
                rows.acknowledge()
            }
        case 1:
            rows.begin([("challenge:\(n)", "\(Self.expiry)")])
            if trial.attempt("challenge", {
                try database.insertAppAttestChallenge(Self.challenge(n), expiresAt: Self.expiry, now: now)
            }) {
                rows.acknowledge()
            }
        default:
            rows.begin([("key:\(n)", "0 nil")])
            if trial.attempt("key attestation", {
                guard try database.insertAppAttestKey(key(n)) else { throw PowercutSimulator.Failure(description: "key \(n) existed") }
            }) {
                rows.acknowledge()
            }
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        var found: [String: String] = [:]
        try database.withConnection { conn in
            for row in try conn.execute("SELECT key_id, sign_count, last_used_at FROM app_attest_keys") {
                guard let id = Data(base64URLEncoded: try row.text(0)), let name = String(data: id, encoding: .utf8),
                      let number = name.split(separator: "-").last else {
                    trial.wrong("a key that was never attested")
                    continue
                }
                found["key:\(number)"] = "\(try row.integer(1)) \(row.optionalInteger(2).map { "\($0)" } ?? "nil")"
            }
            for row in try conn.execute("SELECT challenge, expires_at FROM app_attest_challenges") {
                guard let challenge = Data(base64URLEncoded: try row.text(0)), let name = String(data: challenge, encoding: .utf8),
                      let number = name.split(separator: "-").last else {
                    trial.wrong("a challenge that was never issued")
                    continue
                }
                found["challenge:\(number)"] = "\(try row.integer(1))"
            }
        }
        rows.check(found, trial) { $0 }
    }
}
