import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
@testable import LatchkeyServer

/// `POST /v1/session/apple` and `POST /v1/apple/notifications` against `AppleIDStandIn` on loopback.
@Suite("Apple sessions", .serialized, .offCooperativePool)
struct AppleSessionTests {
    static let clientID = "com.example.latchkey"
    static let subject = "001234.abcdef"

    struct Fixture {
        let test: TestDatabase
        let clock: ManualClock
        let auth: AuthService
        let apple: AppleIDStandIn
        let service: AppleSessionService
        let router: Router

        static func make(_ engine: StorageEngine = .sqlite) async throws -> Fixture? {
            guard let test = try makeTestDatabase(engine) else { return nil }
            // The stand-in checks the client secret against the real time, so this clock starts now.
            let clock = ManualClock(Date())
            let auth = try AuthService(database: test.database, clock: clock,
                                       passwordHasher: Argon2PasswordHasher(parameters: testArgon2))
            let team = AppleTestTeam()
            let apple = try team.standIn()
            let configuration = AppleSignInConfiguration(clientIDs: [clientID], baseURL: apple.baseURL,
                                                         teamID: team.teamID, keyID: team.keyID, privateKey: team.key)
            // A generous timeout: on a loaded 2-core CI runner the loopback exchange has taken over 10 s, and a failed
            // exchange is (by design) only audited, which made the test flaky.
            let service = AppleSessionService(auth: auth, configuration: configuration,
                                              http: URLSessionAppleHTTPClient(timeout: 60), refreshTokenKey: SymmetricKey(size: .bits256))
            return Fixture(test: test, clock: clock, auth: auth, apple: apple, service: service,
                           router: Router(auth.routes() + service.routes()))
        }

        func cleanup() {
            apple.stop()
            test.cleanup()
        }

        func request(_ method: String, _ path: String, body: Data = Data(), bearer: String? = nil) async -> HTTPResponse {
            var headers: [String: String] = [:]
            if !body.isEmpty { headers["content-type"] = "application/json" }
            if let bearer { headers["authorization"] = "Bearer \(bearer)" }
            return await router.handle(HTTPRequest(method: method, path: path, headers: headers, body: body,
                                                   remoteAddress: "127.0.0.1"))
        }

        func identityToken(rawNonce: String = "raw-nonce", email: String = "x@privaterelay.appleid.com") throws -> String {
            let t = Int(clock.now().timeIntervalSince1970)
            return try apple.sign([
                "iss": "https://appleid.apple.com", "aud": AppleSessionTests.clientID, "sub": AppleSessionTests.subject,
                "iat": t, "exp": t + 600, "nonce": SHA256.hash(data: Data(rawNonce.utf8)).hexString,
                "email": email, "email_verified": "true", "is_private_email": "true",
            ])
        }

        func signIn(nonce: String = "raw-nonce", tokenNonce: String = "raw-nonce", code: String? = nil,
                    first: String? = nil, last: String? = nil, bearer: String? = nil) async throws -> HTTPResponse {
            var body: [String: Any] = ["identity_token": try identityToken(rawNonce: tokenNonce), "raw_nonce": nonce]
            if let code { body["authorization_code"] = code }
            if let first, let last { body["user"] = ["email": "x@privaterelay.appleid.com", "name": ["firstName": first, "lastName": last]] }
            return await request("POST", "/v1/session/apple", body: try JSONSerialization.data(withJSONObject: body), bearer: bearer)
        }

        func notification(_ type: String, jti: String = UUID().uuidString) throws -> Data {
            let t = Int(clock.now().timeIntervalSince1970)
            let events = #"{"type":"\#(type)","sub":"\#(AppleSessionTests.subject)","event_time":\#(t * 1000),"email":"x@privaterelay.appleid.com","is_private_email":"true"}"#
            let jws = try apple.sign(["iss": "https://appleid.apple.com", "aud": AppleSessionTests.clientID, "iat": t,
                                      "exp": t + 600, "jti": jti, "events": events])
            return try JSONSerialization.data(withJSONObject: ["payload": jws])
        }
    }

    @Test func firstSignInCreatesTheAccountAndKeepsNameAndEmail() async throws {
        let f = try #require(try await Fixture.make())
        defer { f.cleanup() }
        let code = try f.apple.authorize(.init(clientID: Self.clientID, appleID: "ada@example.com")).authorizationCode
        let first = try await f.signIn(code: code, first: "Ada", last: "Lovelace")
        #expect(first.status == 200, "\(first.bodyText)")
        let access = try #require(first.object["access_token"] as? String)
        let me = await f.request("GET", "/v1/me", bearer: access)
        #expect(me.status == 200 && me.bodyText.contains("apple:\(Self.subject)"))
        let stored = try #require(try f.auth.database.appleIdentity(subject: Self.subject))
        #expect(stored.firstName == "Ada" && stored.lastName == "Lovelace")
        #expect(stored.email == "x@privaterelay.appleid.com" && stored.emailVerified && stored.isPrivateEmail)
        // Apple's refresh token is stored sealed, never in the clear.
        let refresh = try #require(try f.service.appleRefreshToken(subject: Self.subject))
        #expect(!refresh.isEmpty && stored.refreshTokenSealed?.contains(refresh) == false)

        let second = try await f.signIn(first: "Someone", last: "Else")
        #expect(second.status == 200)
        let again = await f.request("GET", "/v1/me", bearer: try #require(second.object["access_token"] as? String))
        #expect(again.object["id"] as? String == me.object["id"] as? String)
        #expect(try f.auth.database.appleIdentity(subject: Self.subject)?.firstName == "Ada")
    }

    @Test func nonceMismatchIsRefused() async throws {
        let f = try #require(try await Fixture.make())
        defer { f.cleanup() }
        let refused = try await f.signIn(nonce: "another-nonce")
        #expect(refused.status == 401 && refused.bodyText.contains("invalid_grant"))
        #expect(try f.auth.database.appleIdentity(subject: Self.subject) == nil)
    }

    @Test func bearerLinksTheAppleIDToAnExistingAccount() async throws {
        let f = try #require(try await Fixture.make())
        defer { f.cleanup() }
        let account = try await f.auth.createAccount(username: "grace", password: "correct horse")
        let login = try await f.auth.loginWithPassword(username: "grace", password: "correct horse", ip: "127.0.0.1")
        let linked = try await f.signIn(bearer: login.accessToken)
        #expect(linked.status == 200)
        #expect(try f.auth.database.appleIdentity(subject: Self.subject)?.accountID == account.id)
    }

    @Test(arguments: ["consent-revoked", "account-delete", "email-disabled", "email-enabled"])
    func notificationsTakeEffect(_ type: String) async throws {
        let f = try #require(try await Fixture.make())
        defer { f.cleanup() }
        let signedIn = try await f.signIn(first: "Ada", last: "Lovelace")
        let access = try #require(signedIn.object["access_token"] as? String)
        if type == "email-enabled" {
            #expect(await f.request("POST", "/v1/apple/notifications", body: try f.notification("email-disabled")).status == 200)
        }
        let body = try f.notification(type, jti: "jti-\(type)")
        #expect(await f.request("POST", "/v1/apple/notifications", body: body).status == 200)
        // A redelivery is accepted and not acted on twice.
        #expect(await f.request("POST", "/v1/apple/notifications", body: body).status == 200)
        let me = await f.request("GET", "/v1/me", bearer: access)
        let stored = try f.auth.database.appleIdentity(subject: Self.subject)
        switch type {
        case "consent-revoked":
            #expect(me.status == 401)
            #expect(stored != nil)
        case "account-delete":
            #expect(me.status == 401)
            #expect(stored == nil)
        case "email-disabled":
            #expect(me.status == 200)
            #expect(stored?.emailEnabled == false)
        default:
            #expect(me.status == 200)
            #expect(stored?.emailEnabled == true)
        }
        let bad = await f.request("POST", "/v1/apple/notifications", body: Data(#"{"payload":"not.a.jws"}"#.utf8))
        #expect(bad.status == 400)
    }

    @Test(arguments: StorageEngine.allCases)
    func notificationLedgerRecordsOnceAcrossDatabases(_ engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let one = DatabaseAppleNotificationLedger(database: test.database)
        let two = DatabaseAppleNotificationLedger(database: try test.openAnother())
        let expires = Date().addingTimeInterval(600)
        #expect(try one.record("jti-1", expiresAt: expires))
        #expect(try two.record("jti-1", expiresAt: expires) == false)
        #expect(try two.record("jti-2", expiresAt: expires))
    }
}

/// Sign in with Apple answers a transient storage failure 503 with `Retry-After`, as the other endpoints do, and its
/// invalid_token carries WWW-Authenticate.
@Suite(.offCooperativePool) struct AppleSessionStorageErrorTests {
    @Test func transientStorageFailuresAre503WithRetryAfter() {
        #expect(AppleSessionError.storage(DatabaseError.busy) == .temporarilyUnavailable)
        #expect(AppleSessionError.storage(DatabaseError.statementFailed("bug")) == .serverError)
        #expect(AppleSessionError.storage(AppleSessionError.linkedElsewhere) == .linkedElsewhere)
        let unavailable = AppleSessionService.response(.temporarilyUnavailable)
        #expect(unavailable.status == 503 && unavailable.header("Retry-After") == "2")
        #expect(AppleSessionService.response(.invalidToken).header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        #expect(AppleSessionError.temporarilyUnavailable.errorDescription?.isEmpty == false)
    }
}
