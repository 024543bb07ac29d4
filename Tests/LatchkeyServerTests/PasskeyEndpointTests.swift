import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyWebAuthn
@testable import LatchkeyServer

@Suite("Passkey endpoints", .offCooperativePool)
struct PasskeyEndpointTests {
    @Test func passwordlessSignUpSecondPasskeyListDeleteAndSignIn() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let laptop = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let phone = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())

        let created = try await f.register(laptop, username: "alice")
        #expect(created.status == 201, "\(created.bodyText)")
        let access = try #require(created.object["access_token"] as? String)
        #expect(created.object["refresh_token"] is String)
        #expect(created.object["token_type"] as? String == "Bearer")
        let firstID = try #require(created.object["id"] as? String)
        #expect(created.object["created_at"] is String)

        let me = await f.request("GET", "/v1/me", bearer: access)
        #expect(me.status == 200 && me.bodyText.contains("alice"))

        // A passwordless account has no password that verifies.
        #expect(await f.base.login("alice", "!").status == 401)

        // The name is now taken for another passwordless sign-up.
        let taken = await f.request("POST", "/v1/passkeys/register/options", body: f.json(["username": "ALICE"]))
        #expect(taken.status == 409 && taken.bodyText.contains("username_taken"))

        // Second passkey with the Bearer token: same user handle, the first one excluded.
        let options = await f.request("POST", "/v1/passkeys/register/options", body: Data("{}".utf8), bearer: access)
        let envelope = try JSONDecoder().decode(OptionsEnvelopeForTests<PublicKeyCredentialCreationOptions>.self, from: options.body)
        #expect(envelope.publicKey.excludeCredentials?.map(\.id.data.base64URLEncodedStringForTests) == [firstID])
        #expect(envelope.publicKey.user.name == "alice")
        #expect(envelope.publicKey.user.id.data.count == 64)
        let added = try await f.register(phone, username: nil, bearer: access)
        #expect(added.status == 201, "\(added.bodyText)")
        #expect(added.object["access_token"] == nil)
        let secondID = try #require(added.object["id"] as? String)

        let list = await f.request("GET", "/v1/passkeys", bearer: access)
        #expect(list.status == 200)
        let keys = try #require(list.object["passkeys"] as? [[String: Any]])
        #expect(Set(keys.compactMap { $0["id"] as? String }) == [firstID, secondID])
        #expect(keys.allSatisfy { $0["backup_eligible"] is Bool && $0["transports"] is [Any] && $0["name"] is String })

        // Sign in with each.
        for authenticator in [laptop, phone] {
            let signedIn = try await f.signIn(try await f.assertion(authenticator))
            #expect(signedIn.status == 200, "\(signedIn.bodyText)")
            let token = try #require(signedIn.object["access_token"] as? String)
            #expect(await f.request("GET", "/v1/me", bearer: token).bodyText.contains("alice"))
        }
        let used = await f.request("GET", "/v1/passkeys", bearer: access)
        #expect((used.object["passkeys"] as? [[String: Any]])?.allSatisfy { $0["last_used_at"] is String } == true)

        // Delete the phone's; it no longer signs in; deleting again is 404, and without a token 401.
        #expect(await f.request("DELETE", "/v1/passkeys/\(secondID)", bearer: access).status == 204)
        #expect(await f.request("DELETE", "/v1/passkeys/\(secondID)", bearer: access).status == 404)
        #expect(await f.request("DELETE", "/v1/passkeys/\(firstID)").status == 401)
        let gone = try await f.signIn(try await f.assertion(phone))
        #expect(gone.status == 401 && gone.bodyText.contains("invalid_grant"))

        let events = try f.base.service.database.auditEvents(limit: 100).map(\.event)
        #expect(events.contains("passkey_registered") && events.contains("passkey_login")
                && events.contains("passkey_deleted") && events.contains("passkey_login_failed"))
    }

    @Test func replayedAssertionIsRefused() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(key, username: "bob").status == 201)
        let assertion = try await f.assertion(key)
        #expect(try await f.signIn(assertion).status == 200)
        let replay = try await f.signIn(assertion)
        #expect(replay.status == 401 && replay.bodyText.contains("invalid_grant"))
    }

    @Test func registrationResponseReplayedIsRefused() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let options = await f.request("POST", "/v1/passkeys/register/options", body: f.json(["username": "dora"]))
        let envelope = try JSONDecoder().decode(OptionsEnvelopeForTests<PublicKeyCredentialCreationOptions>.self, from: options.body)
        let body = try JSONEncoder().encode(try key.register(envelope.publicKey, origin: PasskeyEndpointFixture.origin))
        #expect(await f.request("POST", "/v1/passkeys/register/verify", body: body).status == 201)
        let again = await f.request("POST", "/v1/passkeys/register/verify", body: body)
        #expect(again.status == 400 && again.bodyText.contains("invalid_request"))
    }

    /// A WebAuthnConfiguration defaults to `.preferred`, the endpoints still require UV; a response field that is
    /// not base64url is a 400 naming it; a discoverable sign-in without a user handle is audited as such.
    @Test func endpointsRequireUVNameBadBase64URLFieldsAndMissingUserHandles() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let defaults = try PasskeyService(auth: f.base.service, configuration: WebAuthnConfiguration(
            relyingPartyID: "localhost", relyingPartyName: "t", allowedOrigins: [PasskeyEndpointFixture.origin]))
        #expect(defaults.relyingParty.configuration.userVerification == .required)

        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(key, username: "erin").status == 201)
        var body = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(try await f.assertion(key)))
                                    as? [String: Any])
        body["rawId"] = "not*base64url"
        let bad = await f.request("POST", "/v1/passkeys/authenticate/verify", body: try JSONSerialization.data(withJSONObject: body))
        #expect(bad.status == 400 && bad.bodyText.contains("invalid_request") && bad.bodyText.contains("rawId"), "\(bad.bodyText)")

        var anonymous = try await f.assertion(key)
        anonymous.response.userHandle = nil
        let refused = try await f.signIn(anonymous)
        #expect(refused.status == 401 && refused.bodyText.contains("invalid_grant"))
        let failure = try f.base.service.database.auditEvents(limit: 100).first { $0.event == "passkey_login_failed" }
        #expect(failure?.detail == "userHandleMissing")
    }

    @Test func userVerificationMissingIsRefusedAndAudited() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(key, username: "carol").status == 201)
        key.behaviour.userVerified = false
        let refused = try await f.signIn(try await f.assertion(key))
        #expect(refused.status == 401 && refused.bodyText.contains("invalid_grant"))
        let failure = try f.base.service.database.auditEvents(limit: 100).first { $0.event == "passkey_login_failed" }
        #expect(failure?.detail == "userVerificationMissing")
        #expect(failure?.accountID != nil)
        // Registration without UV is refused as well (400).
        let other = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        other.behaviour.userVerified = false
        #expect(try await f.register(other, username: "carl").status == 400)
    }

    @Test func signCountRollbackIsAudited() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(key, username: "erin").status == 201)
        let older = try await f.assertion(key)   // counter n
        let newer = try await f.assertion(key)   // counter n+1
        #expect(try await f.signIn(newer).status == 200)
        #expect(try await f.signIn(older).status == 401)
        let events = try f.base.service.database.auditEvents(limit: 100).map(\.event)
        #expect(events.contains("passkey_sign_count_rollback"))
    }

    @Test(arguments: StorageEngine.allCases)
    func challengeIsConsumedOnceAcrossDatabases(_ engine: StorageEngine) async throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let one = DatabaseChallengeStore(database: test.database)
        let two = DatabaseChallengeStore(database: try test.openAnother())
        for _ in 0..<5 {
            let challenge = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            try await one.insert(IssuedChallenge(challenge: challenge, ceremony: .authentication, userHandle: nil,
                                                 expiresAt: Date().addingTimeInterval(300)))
            async let a = one.consume(challenge)
            async let b = two.consume(challenge)
            let results = [try await a, try await b]
            #expect(results.compactMap { $0 }.count == 1)
            #expect(results.compactMap { $0 }.first?.ceremony == .authentication)
        }
    }

    @Test(arguments: StorageEngine.allCases)
    func passkeyStorageRoundTrips(_ engine: StorageEngine) async throws {
        guard let f = try await PasskeyEndpointFixture.make(engine) else { return }
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let created = try await f.register(key, username: "frank")
        #expect(created.status == 201)
        let id = try #require(created.object["id"] as? String)
        #expect(try await f.signIn(try await f.assertion(key)).status == 200)
        // A second server process on the same database accepts a challenge the first issued.
        let sibling = try PasskeyService(auth: try await f.base.sibling(), configuration: f.passkeys.relyingParty.configuration)
        let assertion = try await f.assertion(key)
        let tokens = try await sibling.signIn(assertion)
        #expect(!tokens.accessToken.isEmpty)
        let rawID = try #require(Data(base64URLEncodedForTests: id))
        let record = try #require(try f.base.service.database.passkey(id: rawID))
        #expect(record.credential.userHandle.count == 64 && record.credential.lastUsedAt != nil)
    }
}

extension Data {
    var base64URLEncodedStringForTests: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init?(base64URLEncodedForTests text: String) {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        self.init(base64Encoded: s)
    }
}

@Suite("Sign-in page", .offCooperativePool)
struct SignInPageTests {
    @Test func pageLoadsFromTheResources() async throws {
        let page = try #require(WebPage(), "resource URL: \(String(describing: Bundle.module.resourceURL))")
        let router = Router(page.routes())
        let index = await router.handle(HTTPRequest(method: "GET", path: "/", remoteAddress: "127.0.0.1"))
        #expect(index.status == 200 && index.bodyText.contains("<title>Latchkey"))
        let script = await router.handle(HTTPRequest(method: "GET", path: "/app.js", remoteAddress: "127.0.0.1"))
        #expect(script.status == 200 && script.bodyText.contains("/v1/passkeys/register/options"))
    }
}

/// A transient storage failure behind a passkey endpoint is 503 with `Retry-After`, as on the auth endpoints.
@Suite(.offCooperativePool) struct PasskeyEndpointStorageErrorTests {
    @Test func transientStorageFailuresAre503WithRetryAfter() {
        #expect(PasskeyEndpointError.storage(DatabaseError.busy) == .temporarilyUnavailable)
        #expect(PasskeyEndpointError.storage(DatabaseError.poolExhausted(waitedMilliseconds: 5)) == .temporarilyUnavailable)
        #expect(PasskeyEndpointError.storage(DatabaseError.connectionFailed("down")) == .temporarilyUnavailable)
        #expect(PasskeyEndpointError.storage(DatabaseError.statementFailed("bug")) == .serverError)
        #expect(PasskeyEndpointError.storage(PasskeyEndpointError.notFound) == .notFound)
        let response = PasskeyService.response(.temporarilyUnavailable)
        #expect(response.status == 503 && response.header("Retry-After") == "2")
        #expect(response.errorCode == "temporarily_unavailable")
        #expect(PasskeyEndpointError.temporarilyUnavailable.errorDescription?.isEmpty == false)
    }
}
