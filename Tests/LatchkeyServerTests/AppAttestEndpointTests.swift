import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

@Suite("App Attest endpoints and protected routes", .offCooperativePool)
struct AppAttestEndpointTests {
    static let signUpBody = Data(#"{"username":"attested-user","password":"correct horse battery"}"#.utf8)

    @Test(arguments: StorageEngine.allCases)
    func attestsOnceWithAOneTimeChallenge(_ engine: StorageEngine) async throws {
        guard let f = try await AppAttestFixture.make(engine) else { return }
        let keyID = f.device.generateKey()
        let challenge = try await f.challenge()
        let attestation = try f.device.attestKey(keyID, clientDataHash: AppAttestClientData.attestationHash(challenge: challenge))
        let created = await f.attest(keyID: keyID, challenge: challenge, attestation: attestation)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let body = try JSONDecoder().decode([String: AnyCodableValue].self, from: created.body)
        #expect(body["key_id"] == .string(keyID.base64URLEncodedString()) && body["environment"] == .string("development"))
        #expect(body["app_id"] == .string(AppAttestTestDevice.appID))
        // The same attestation again: its challenge is used up.
        let replay = await f.attest(keyID: keyID, challenge: challenge, attestation: attestation)
        #expect(replay.status == 400 && replay.appAttestStep == "challenge")
        // A second valid attestation of the same key (a lost answer) is accepted and changes nothing.
        let again = try await f.challenge()
        let second = await f.attest(keyID: keyID, challenge: again, attestation:
            try f.device.attestKey(keyID, clientDataHash: AppAttestClientData.attestationHash(challenge: again)))
        #expect(second.status == 200)
        let stored = try #require(try f.base.test.database.appAttestKey(id: keyID))
        #expect(stored.counter == 0 && stored.appID == AppAttestTestDevice.appID && stored.receipt == Data("test receipt".utf8))
        let audit = try f.base.test.database.auditEvents().map(\.event)
        #expect(audit.contains("app_attest_key_attested") && audit.contains("app_attest_failed"))
    }

    @Test func attestationFailuresNameTheirStep() async throws {
        guard let f = try await AppAttestFixture.make() else { return }
        func attempt(counter: UInt32 = 0, aaguid: Data? = nil, otherChallenge: Bool = false,
                     keyMismatch: Bool = false) async throws -> HTTPResponse {
            let keyID = f.device.generateKey()
            let challenge = try await f.challenge()
            let signed = otherChallenge ? Data("another challenge".utf8) : challenge
            let attestation = try f.device.attestKey(keyID, clientDataHash: AppAttestClientData.attestationHash(challenge: signed),
                                                     counter: counter, aaguid: aaguid)
            return await f.attest(keyID: keyMismatch ? f.device.generateKey() : keyID, challenge: challenge,
                                  attestation: attestation)
        }
        #expect(try await attempt().status == 201)
        #expect(try await attempt(counter: 1).appAttestStep == "counter")
        #expect(try await attempt(aaguid: AppAttestEnvironment.production.aaguid).appAttestStep == "environment")
        #expect(try await attempt(otherChallenge: true).appAttestStep == "nonce")
        #expect(try await attempt(keyMismatch: true).appAttestStep == "key_id")
        let unknown = await f.attest(keyID: f.device.generateKey(), challenge: Data(repeating: 7, count: 32),
                                     attestation: Data([0xa0]))
        #expect(unknown.status == 400 && unknown.appAttestStep == "challenge")
        let garbage = await f.attest(keyID: f.device.generateKey(), challenge: try await f.challenge(), attestation: Data([0xa0]))
        #expect(garbage.status == 400 && garbage.appAttestStep == "malformed")
        let shortKey = await f.request("POST", "/v1/app-attest/attest",
                                       body: Data(#"{"key_id":"AAAA","challenge":"AAAA","attestation":"AAAA"}"#.utf8))
        #expect(shortKey.status == 400 && shortKey.appAttestStep == nil)
        // An expired challenge.
        let late = try await f.challenge()
        f.base.clock.advance(by: 301)
        let keyID = f.device.generateKey()
        let expired = await f.attest(keyID: keyID, challenge: late, attestation:
            try f.device.attestKey(keyID, clientDataHash: AppAttestClientData.attestationHash(challenge: late)))
        #expect(expired.appAttestStep == "challenge")
    }

    /// With `require`, sign-up is served with a valid assertion only; a replay, a lowered counter, a used challenge,
    /// another body or another path are refused with their step.
    @Test(arguments: StorageEngine.allCases)
    func signUpRequiresAFreshAssertion(_ engine: StorageEngine) async throws {
        guard let f = try await AppAttestFixture.make(engine) else { return }
        let keyID = try await f.attestedKey()
        let missing = await f.request("POST", "/v1/accounts", body: Self.signUpBody)
        #expect(missing.status == 403 && missing.appAttestStep == "missing")
        let challenge = try await f.challenge()
        let (created, header) = try await f.assertedRequest("POST", "/v1/accounts", body: Self.signUpBody, keyID: keyID,
                                                            challenge: challenge)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        #expect(try f.base.test.database.appAttestKey(id: keyID)?.counter == 1)
        // The same request and header again: a replayed assertion.
        let replay = await f.request("POST", "/v1/accounts", body: Self.signUpBody,
                                     headers: [AppAttestRequestAssertion.headerName: header])
        #expect(replay.status == 403 && replay.appAttestStep == "counter")
        // A new assertion (counter 2) over the used challenge.
        let reused = try await f.assertedRequest("POST", "/v1/accounts", body: Self.signUpBody, keyID: keyID,
                                                 challenge: challenge)
        #expect(reused.response.status == 403 && reused.response.appAttestStep == "challenge")
        // Refused assertions changed nothing: counter 2 is still usable with a fresh challenge.
        #expect(try f.base.test.database.appAttestKey(id: keyID)?.counter == 1)
        // A lowered counter.
        let lowered = try await f.assertedRequest("POST", "/v1/accounts", body: Self.signUpBody, keyID: keyID, counter: 1)
        #expect(lowered.response.status == 403 && lowered.response.appAttestStep == "counter")
        // Another body, or another path, than the assertion covers.
        let challenge2 = try await f.challenge()
        let header2 = try f.device.assertionHeader(keyID, challenge: challenge2, method: "POST", path: "/v1/accounts",
                                                   body: Self.signUpBody)
        let otherBody = Data(#"{"username":"mallory","password":"correct horse battery"}"#.utf8)
        let swapped = await f.request("POST", "/v1/accounts", body: otherBody,
                                      headers: [AppAttestRequestAssertion.headerName: header2])
        #expect(swapped.status == 403 && swapped.appAttestStep == "signature")
        let challenge3 = try await f.challenge()
        let header3 = try f.device.assertionHeader(keyID, challenge: challenge3, method: "POST", path: "/v1/token", body: otherBody)
        let otherPath = await f.request("POST", "/v1/accounts", body: otherBody,
                                        headers: [AppAttestRequestAssertion.headerName: header3])
        #expect(otherPath.status == 403 && otherPath.appAttestStep == "signature")
        // Unknown key, malformed header.
        let unknown = try await f.assertedRequest("POST", "/v1/accounts", body: otherBody, keyID: f.device.generateKey())
        #expect(unknown.response.appAttestStep == "unknown_key")
        let malformed = await f.request("POST", "/v1/accounts", body: otherBody,
                                        headers: [AppAttestRequestAssertion.headerName: "not.a-header"])
        #expect(malformed.status == 403 && malformed.appAttestStep == "malformed")
        // Nothing refused created an account; a good one still goes through.
        let good = try await f.assertedRequest("POST", "/v1/accounts", body: otherBody, keyID: keyID)
        #expect(good.response.status == 201)
    }

    @Test func tokenRefreshRequiresAnAssertionToo() async throws {
        guard let f = try await AppAttestFixture.make(signUp: .off) else { return }
        let keyID = try await f.attestedKey()
        #expect(await f.request("POST", "/v1/accounts", body: Self.signUpBody).status == 201)
        let login = await f.request("POST", "/v1/session/password",
                                    body: Data(#"{"username":"attested-user","password":"correct horse battery"}"#.utf8))
        let refreshToken = try #require(try login.decodeJSON(TokenResponse.self).refreshToken)
        let form = Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8)
        let bare = await f.request("POST", "/v1/token", body: form, contentType: "application/x-www-form-urlencoded")
        #expect(bare.status == 403 && bare.appAttestStep == "missing")
        let refreshed = try await f.assertedRequest("POST", "/v1/token", body: form,
                                                    contentType: "application/x-www-form-urlencoded", keyID: keyID)
        #expect(refreshed.response.status == 200)
    }

    /// `report` serves every request and audits the failures; `off` ignores the header.
    @Test func reportServesAndAudits() async throws {
        guard let f = try await AppAttestFixture.make(signUp: .report, tokenRefresh: .off) else { return }
        let keyID = try await f.attestedKey()
        let bad = await f.request("POST", "/v1/accounts", body: Self.signUpBody,
                                  headers: [AppAttestRequestAssertion.headerName: "AAAA.AAAA.AAAA"])
        #expect(bad.status == 201)
        let events = try f.base.test.database.auditEvents()
        #expect(events.contains { $0.event == "app_attest_failed" && $0.detail == "sign-up: malformed" })
        let good = try await f.assertedRequest("POST", "/v1/accounts",
                                               body: Data(#"{"username":"second","password":"correct horse battery"}"#.utf8),
                                               keyID: keyID)
        #expect(good.response.status == 201)
        #expect(try f.base.test.database.appAttestKey(id: keyID)?.counter == 1)
        let ignored = await f.request("POST", "/v1/token", body: Data("grant_type=refresh_token&refresh_token=x".utf8),
                                      contentType: "application/x-www-form-urlencoded",
                                      headers: [AppAttestRequestAssertion.headerName: "garbage"])
        #expect(ignored.status == 400 && ignored.appAttestStep == nil)
    }

    @Test func withoutAConfigurationTheEndpointsAnswer404AndNothingIsGuarded() async throws {
        guard let base = try await ServiceFixture.make() else { return }
        let service = AppAttestService(auth: base.service, configuration: nil)
        let router = Router(service.guarding(base.service.routes()) + service.routes())
        let attestBody = #"{"key_id":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","challenge":"AAAA","attestation":"oA"}"#
        for (path, body) in [("/v1/app-attest/challenge", "{}"), ("/v1/app-attest/attest", attestBody)] {
            let response = await router.handle(HTTPRequest(method: "POST", path: path, headers: ["content-type": "application/json"],
                                                           body: Data(body.utf8)))
            #expect(response.status == 404 && response.appAttestStep == nil)
        }
        let signUp = await router.handle(HTTPRequest(method: "POST", path: "/v1/accounts",
                                                     headers: ["content-type": "application/json"], body: Self.signUpBody))
        #expect(signUp.status == 201)
    }

    /// Of assertions with one counter presented at once on two server processes sharing the database, one is accepted.
    @Test(arguments: StorageEngine.allCases)
    func concurrentAssertionsNeverAcceptACounterTwice(_ engine: StorageEngine) async throws {
        guard let f = try await AppAttestFixture.make(engine) else { return }
        let keyID = try await f.attestedKey()
        let databases = [f.base.test.database, try f.base.test.openAnother()]
        for round in UInt32(1)...8 {
            var challenges: [Data] = []
            for _ in 0..<6 { challenges.append(try await f.challenge()) }
            let outcomes = try await withThrowingTaskGroup(of: AppAttestAcceptance.self) { group in
                for (index, challenge) in challenges.enumerated() {
                    let database = databases[index % 2]
                    group.addTask {
                        try database.acceptAppAttestAssertion(keyID: keyID, counter: round, challenge: challenge,
                                                              now: f.base.clock.seconds)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .accepted }.count == 1, "round \(round): \(outcomes)")
            #expect(outcomes.filter { $0 == .counterNotIncreasing(stored: round) }.count == 5)
        }
        #expect(try f.base.test.database.appAttestKey(id: keyID)?.counter == 8)
    }
}
