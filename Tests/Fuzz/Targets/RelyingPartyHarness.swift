import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeyWebAuthn
import LatchkeySupport

/// Drives `WebAuthnRelyingParty.verifyRegistration` with a fuzzed attestation object: the client data and the
/// challenge are made to match, so verification goes on to the authenticator data, the credential key and the
/// attestation statement (`none`, `packed` self and full, `fido-u2f`, `apple` with their `x5c` chains).
package enum RelyingPartyHarness {
    static let origin = "https://example.com"
    static let challenge = Data(repeating: 9, count: 32)

    /// Every challenge is one issued for a registration (the fuzzer cannot guess a random one).
    final class AnyChallengeStore: ChallengeStore {
        func insert(_ challenge: IssuedChallenge) async throws {}
        func consume(_ challenge: Data) async throws -> IssuedChallenge? {
            IssuedChallenge(challenge: challenge, ceremony: .registration, userHandle: Data([1, 2, 3]),
                            expiresAt: Date.distantFuture)
        }
    }

    /// No trust anchors: nothing may come out `.trusted`. (`try!`: a constant configuration the relying party accepts.)
    /// No credential-key cache: an input's outcome must not depend on the inputs before it, and a cache entry is a
    /// buffer that outlives the input, which LeakSanitizer reports as leaked (it cannot follow the reference from the
    /// cache: Swift keeps `Data`'s storage in an enum payload whose spare bits hide the pointer).
    static let relyingParty: WebAuthnRelyingParty = {
        var configuration = WebAuthnConfiguration(relyingPartyID: "example.com", relyingPartyName: "Example",
                                                  allowedOrigins: [origin], userVerification: .preferred,
                                                  attestation: .direct)
        configuration.credentialKeyCacheCapacity = 0
        return try! WebAuthnRelyingParty(configuration: configuration, challenges: AnyChallengeStore(),
                                         now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }()

    static func verify(_ attestationObject: Data) throws(FuzzPropertyViolation) {
        let clientData = Data(#"{"type":"webauthn.create","challenge":"\#(challenge.base64URLEncodedString())","origin":"\#(origin)"}"#.utf8)
        let credentialID = (try? AttestationObject(attestationObject))?.authenticatorData.attestedCredential?.credentialID ?? Data([0])
        let response = RegistrationResponse(
            rawId: credentialID,
            response: AuthenticatorAttestationResponse(clientDataJSON: clientData, attestationObject: attestationObject))
        let outcome = blocking { try await relyingParty.verifyRegistration(response) }
        guard case .success(let credential) = outcome else { return }
        try require(credential.attestationTrust != .trusted, .attestation, "trusted attestation without trust anchors")
        try require(credential.id == credentialID, .attestation, "the stored credential id is not the attested one")
        let key = try? COSEKey(encoded: credential.publicKey)
        try require(key?.algorithm.rawValue == credential.algorithm, .attestation,
                    "the stored public key does not parse to the stored algorithm")
    }

    /// Runs the async verification on a private serial queue and waits for it. Not the cooperative pool: a
    /// caller that is itself on the pool (the replay test) would otherwise block the threads the task needs.
    final class QueueExecutor: TaskExecutor {
        let queue = DispatchQueue(label: "latchkey.fuzz.relying-party")
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    static let executor = QueueExecutor()

    /// Runs `body` as a task on `executor` and waits until the task is entirely over, not merely until it has its
    /// result. The task signals before it ends: the rest of its job on the queue — `tail`, then the release of its frame
    /// and of the closure's context (`body` and what it captured), the result box included — runs after `signal()`.
    /// Returning at the signal (as this did) let libFuzzer run its leak check while that job had not finished, which
    /// on a busy machine it often had not (libFuzzer checks after an input that allocated more than it freed, run
    /// twice); LeakSanitizer cannot follow Swift's references held in enum payloads (`Data`'s storage, a `Result`), so
    /// the buffers of the registration the live task still held were reported as leaked (issue 35; the regression
    /// `attestation/registration-task-outlived-the-input`). An empty block on the same serial queue runs only after
    /// that job has returned. `tail` exists for the test that pins this (FuzzRegressionTests).
    package static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T,
                                              tail: @escaping @Sendable () -> Void = {}) -> Result<T, any Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.value.withLock { $0 = result }
            done.signal()
            tail()
        }
        done.wait()
        executor.queue.sync {}
        return box.value.withLock { $0 } ?? .failure(CancellationError())
    }

    final class ResultBox<T: Sendable>: Sendable {
        let value = Locked<Result<T, any Error>?>(nil)
    }

    /// Statements of every format around the seed certificates (Tests/Fuzz/Corpus/x509, made by scripts/fuzz.sh),
    /// on top of an authenticator's real authenticator data.
    static func seeds(authenticatorData: Data) -> [Data] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/x509", isDirectory: true)
        let certificates = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            .compactMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
        guard !certificates.isEmpty else { return [] }
        let chain = CBOR.array(certificates.prefix(2).map { .byteString($0) })
        let signature = CBOR.byteString(Data([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]))
        let statements: [(String, CBOR)] = [
            ("packed", .map(["alg": -7, "sig": signature, "x5c": chain])),
            ("fido-u2f", .map(["sig": signature, "x5c": chain])),
            ("apple", .map(["x5c": chain])),
        ]
        return statements.map { format, statement in
            CBOR.map(["fmt": .textString(format), "attStmt": statement, "authData": .byteString(authenticatorData)]).encoded
        }
    }
}
