import CryptoKit
import DeviceCheck
import Foundation
import LatchkeyTestSupport
import LatchkeyTPM
import LatchkeyCrypto
import Testing

/// `DCAppAttestService` on swtpm, driven by app code written for iOS (AppCode/), checked by a verifier that follows
/// Apple's steps against the development authority's root.
@Suite(.offCooperativePool) struct AppAttestTests {
    static let appID = "ABCDE12345.org.latchkey.tests"

    /// A TPM, a key directory and an authority of the test's own; nil when swtpm is missing (and not required).
    struct Fixture {
        let tpm: SoftwareTPM
        let directory: URL
        let configuration: LatchkeyDeviceCheckConfiguration

        init?() throws {
            guard let tpm = try SoftwareTPM.start() else { return nil }
            self.tpm = tpm
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-appattest-\(UUID().uuidString)")
            configuration = LatchkeyDeviceCheckConfiguration(
                appID: AppAttestTests.appID, keyDirectory: directory.appendingPathComponent("keys"),
                authorityDirectory: directory.appendingPathComponent("authority"))
        }

        func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
            try await LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
                try await LatchkeyDeviceCheckConfiguration.$task.withValue(configuration) { try await body() }
            }
        }

        func verifier() throws -> AppAttestVerifier {
            try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
                AppAttestVerifier(appID: AppAttestTests.appID,
                                  root: try Certificate(derRepresentation: LatchkeyAppAttestAuthority(
                                      directory: configuration.authorityDirectory!).rootCertificate()))
            }
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func attestsAndAssertsWithAsyncAppCode() async throws {
        guard let f = try Fixture() else { return }
        defer { f.remove() }
        let client = AppIntegrityClient()
        let challenge = Data("one-time challenge".utf8)
        let (keyId, attestation) = try await f.run { try await client.attestedKey(challenge: challenge) }
        let verifier = try f.verifier()
        let publicKey = try verifier.verifyAttestation(attestation, keyID: keyId, challenge: challenge)
        // A wrong challenge, or another App ID, does not verify.
        #expect(throws: AppAttestVerifier.Failure.self) {
            try verifier.verifyAttestation(attestation, keyID: keyId, challenge: Data("another".utf8))
        }
        #expect(throws: AppAttestVerifier.Failure.self) {
            try AppAttestVerifier(appID: "ABCDE12345.org.other", root: verifier.root)
                .verifyAttestation(attestation, keyID: keyId, challenge: challenge)
        }
        var counter: UInt32 = 0
        for request in 1...3 {
            let clientData = Data(#"{"request":\#(request),"challenge":"c\#(request)"}"#.utf8)
            let assertion = try await f.run { try await client.assertion(keyId: keyId, clientData: clientData) }
            let next = try verifier.verifyAssertion(assertion, clientData: clientData, publicKey: publicKey,
                                                    previousCounter: counter)
            #expect(next == counter + 1)
            counter = next
            // Replayed: the counter is not above the last one seen.
            #expect(throws: AppAttestVerifier.Failure.self) {
                try verifier.verifyAssertion(assertion, clientData: clientData, publicKey: publicKey, previousCounter: counter)
            }
        }
    }

    @Test func attestsAndAssertsWithCompletionHandlerAppCode() async throws {
        guard let f = try Fixture() else { return }
        defer { f.remove() }
        let client = AppIntegrityClient()
        let challenge = Data("challenge for the completion handlers".utf8)
        let keyId: String = try await f.run {
            try await withCheckedThrowingContinuation { continuation in client.makeKey { continuation.resume(with: $0) } }
        }
        let attestation: Data = try await f.run {
            try await withCheckedThrowingContinuation { continuation in
                client.attest(keyId: keyId, challenge: challenge) { continuation.resume(with: $0) }
            }
        }
        let verifier = try f.verifier()
        let publicKey = try verifier.verifyAttestation(attestation, keyID: keyId, challenge: challenge)
        let clientData = Data("GET /v1/me".utf8)
        let assertion: Data = try await f.run {
            try await withCheckedThrowingContinuation { continuation in
                client.assert(keyId: keyId, clientData: clientData) { continuation.resume(with: $0) }
            }
        }
        #expect(try verifier.verifyAssertion(assertion, clientData: clientData, publicKey: publicKey, previousCounter: 0) == 1)
    }

    @Test func keysFollowApplesRules() async throws {
        guard let f = try Fixture() else { return }
        defer { f.remove() }
        let hash = Data(SHA256.hash(data: Data("x".utf8)))
        try await f.run {
            let service = DCAppAttestService.shared
            let keyId = try await service.generateKey()
            // Not attested yet: no assertion.
            await #expect(throws: DCError(.invalidKey)) { try await service.generateAssertion(keyId, clientDataHash: hash) }
            _ = try await service.attestKey(keyId, clientDataHash: hash)
            // Attested once only.
            await #expect(throws: DCError(.invalidKey)) { try await service.attestKey(keyId, clientDataHash: hash) }
            // Unknown keys, malformed identifiers and empty hashes.
            let unknown = Data(repeating: 7, count: 32).base64EncodedString()
            await #expect(throws: DCError(.invalidKey)) { try await service.generateAssertion(unknown, clientDataHash: hash) }
            await #expect(throws: DCError(.invalidInput)) { try await service.attestKey("not base64!", clientDataHash: hash) }
            await #expect(throws: DCError(.invalidInput)) { try await service.generateAssertion(keyId, clientDataHash: Data()) }
            // A DCError is an NSError in DCErrorDomain, and the app code's recovery test recognises invalidKey.
            do {
                _ = try await service.attestKey(keyId, clientDataHash: hash)
            } catch {
                #expect((error as NSError).domain == DCErrorDomain && (error as NSError).code == 3)
                #expect(AppIntegrityClient.needsNewKey(error))
            }
        }
    }

    @Test func countersIncreaseAcrossConcurrentAssertionsAndNeverRepeat() async throws {
        guard let f = try Fixture() else { return }
        defer { f.remove() }
        let challenge = Data("c".utf8)
        let (keyId, attestation) = try await f.run { try await AppIntegrityClient().attestedKey(challenge: challenge) }
        let verifier = try f.verifier()
        let publicKey = try verifier.verifyAttestation(attestation, keyID: keyId, challenge: challenge)
        let counters = try await f.run {
            try await withThrowingTaskGroup(of: UInt32.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let clientData = Data("request \(index)".utf8)
                        let assertion = try await DCAppAttestService.shared.generateAssertion(
                            keyId, clientDataHash: Data(SHA256.hash(data: clientData)))
                        return try verifier.verifyAssertion(assertion, clientData: clientData, publicKey: publicKey,
                                                            previousCounter: 0)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(counters.sorted() == Array(1...12))
    }

    @Test func withoutATPMOrAnAppIDTheServiceIsUnsupported() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-appattest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = LatchkeyDeviceCheckConfiguration(appID: Self.appID, keyDirectory: directory,
                                                              authorityDirectory: directory)
        await LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue("none") {
            await LatchkeyDeviceCheckConfiguration.$task.withValue(configuration) {
                #expect(!DCAppAttestService.shared.isSupported)
                await #expect(throws: DCError(.featureUnsupported)) { try await DCAppAttestService.shared.generateKey() }
            }
        }
        guard let f = try Fixture() else { return }
        defer { f.remove() }
        var noAppID = f.configuration
        noAppID.appID = "not-an-app-id"
        await LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(f.tpm.tcti) {
            await LatchkeyDeviceCheckConfiguration.$task.withValue(noAppID) {
                #expect(!DCAppAttestService.shared.isSupported)
                await #expect(throws: DCError(.featureUnsupported)) { try await DCAppAttestService.shared.generateKey() }
            }
        }
        #expect(!DCDevice.current.isSupported)
        await #expect(throws: DCError(.featureUnsupported)) { try await DCDevice.current.generateToken() }
    }
}
