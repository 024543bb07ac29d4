import CryptoKit
import DeviceCheck
import Foundation
import LatchkeyTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Latchkey
import LatchkeyKeychain
import LatchkeyTPM
import LatchkeyWebAuthn
import Testing

/// App Attest end to end on Linux: `DCAppAttestService` on swtpm — driven by the app code written for iOS (AppCode/)
/// and by the kit's `AppAttestClient` — against `latchkey serve` trusting the development authority's root.
@Suite(.offCooperativePool) struct AppAttestServerTests {
    /// swtpm, a key directory and an authority (AppAttestTests.Fixture), and a server trusting that authority's root
    /// with `policies`; nil when swtpm or the latchkey binary is missing (and not required).
    static func start(policies: [String] = ["sign-up=require", "token-refresh=require"],
                      environment: String = "development") async throws -> (AppAttestTests.Fixture, LatchkeyServe)? {
        guard let fixture = try AppAttestTests.Fixture() else { return nil }
        guard let binary = LatchkeyServe.binary else {
            if SoftwareTPM.required { Issue.record("the latchkey binary is not built beside the tests") }
            return nil
        }
        let authority = try #require(fixture.configuration.authorityDirectory)
        let root = try await fixture.run { try LatchkeyAppAttestAuthority(directory: authority).rootCertificatePEM() }
        let rootFile = fixture.directory.appendingPathComponent("development-root.pem")
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        try root.write(to: rootFile, atomically: true, encoding: .utf8)
        let server = try await LatchkeyServe(binary: binary, arguments: [
            "--app-attest-app-id", AppAttestTests.appID, "--app-attest-environment", environment,
            "--app-attest-root", rootFile.path] + policies.flatMap { ["--app-attest-policy", $0] })
        return (fixture, server)
    }

    static func challenge(_ server: LatchkeyServe) async throws -> Data {
        let answer = try await server.post("v1/app-attest/challenge", body: Data())
        try #require(answer.status == 200)
        return try #require((answer.json["challenge"] as? String).flatMap { Data(base64URLEncoded: $0) })
    }

    static func signUpBody(_ name: String) -> Data {
        Data(#"{"username":"\#(name)","password":"correct horse battery"}"#.utf8)
    }

    /// The iOS app code attests a key and asserts sign-ups; a replayed assertion, a lowered counter and a challenge
    /// used twice are refused with their step.
    @Test func iOSAppCodeAttestsAndAssertsAgainstLatchkeyServe() async throws {
        guard let (f, server) = try await Self.start() else { return }
        defer { server.stop(); f.remove() }
        let client = AppIntegrityClient()
        let attestChallenge = try await Self.challenge(server)
        let (keyId, attestation) = try await f.run { try await client.attestedKey(challenge: attestChallenge) }
        let keyID = try #require(Data(base64Encoded: keyId))
        let attested = try await server.post("v1/app-attest/attest", body: try JSONSerialization.data(withJSONObject: [
            "key_id": keyID.base64URLEncodedString(), "challenge": attestChallenge.base64URLEncodedString(),
            "attestation": attestation.base64URLEncodedString()]))
        #expect(attested.status == 201 && attested.json["environment"] as? String == "development")

        /// An assertion header for a request, made now by the device (its counter goes up by one).
        func header(path: String = "/v1/accounts", body: Data, challenge: Data) async throws -> String {
            let clientData = AppAttestClientData.request(method: "POST", path: path, body: body, challenge: challenge)
            let assertion = try await f.run { try await client.assertion(keyId: keyId, clientData: clientData) }
            return AppAttestRequestAssertion(keyID: keyID, challenge: challenge, assertion: assertion).headerValue
        }
        let name = AppAttestRequestAssertion.headerName
        let body = Self.signUpBody("e2e-user")
        let first = try await Self.challenge(server), second = try await Self.challenge(server)
        let early = try await header(body: body, challenge: first)    // counter 1
        let later = try await header(body: body, challenge: second)   // counter 2
        #expect(try await server.post("v1/accounts", body: body).status == 403)
        #expect(try await server.post("v1/accounts", body: body, headers: [name: later]).status == 201)
        // The same request again: a replayed assertion.
        let replay = try await server.post("v1/accounts", body: body, headers: [name: later])
        #expect(replay.status == 403 && replay.json["step"] as? String == "counter")
        // An older assertion, with its own unused challenge: a lowered counter.
        let lowered = try await server.post("v1/accounts", body: body, headers: [name: early])
        #expect(lowered.status == 403 && lowered.json["step"] as? String == "counter")
        // A new assertion (counter 3) over a challenge already used.
        let reused = try await server.post("v1/accounts", body: Self.signUpBody("e2e-other"),
                                           headers: [name: try await header(body: Self.signUpBody("e2e-other"), challenge: second)])
        #expect(reused.status == 403 && reused.json["step"] as? String == "challenge")
        // A fresh one passes; token refresh too.
        let other = Self.signUpBody("e2e-other")
        let created = try await server.post("v1/accounts", body: other,
                                            headers: [name: try await header(body: other, challenge: try await Self.challenge(server))])
        #expect(created.status == 201)
        let login = try await server.post("v1/session/password", body: other)
        let refreshToken = try #require(login.json["refresh_token"] as? String)
        let form = Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8)
        let refreshed = try await server.post("v1/token", body: form, contentType: "application/x-www-form-urlencoded",
                                              headers: [name: try await header(path: "/v1/token", body: form,
                                                                               challenge: try await Self.challenge(server))])
        #expect(refreshed.status == 200 && refreshed.json["access_token"] is String)
    }

    /// The kit's client attests one key per install (kept in the keychain, this device only), asserts the requests
    /// it is given and token refreshes, and replaces a key the device or the server no longer knows. Its first part is
    /// docs/APP-ATTEST.md's example.
    @Test func theKitClientAttestsOnceAndAssertsMarkedRequests() async throws {
        guard let (f, server) = try await Self.start() else { return }
        defer { server.stop(); f.remove() }
        let keychain = Keychain(service: "org.latchkey.tests.app-attest", store: MemoryStore())
        let api = server.baseURL
        let (status, tokens) = try await f.run { () async throws -> (Int, TokenManager) in
            // APP-ATTEST.md begin
            let appAttest = AppAttestClient(server: api, keychain: keychain)   // over DCAppAttestService.shared

            // Sign-up: sent with an X-App-Attest-Assertion over its method, path and body (the key is attested the first time).
            var signUp = URLRequest(url: api.appendingPathComponent("v1/accounts"))
            signUp.httpMethod = "POST"
            signUp.setValue("application/json", forHTTPHeaderField: "Content-Type")
            signUp.httpBody = try JSONEncoder().encode(["username": "ada", "password": "correct horse battery"])
            let (_, response) = try await appAttest.data(for: signUp)

            // Token refresh: every refresh carries an assertion too.
            let tokens = TokenManager(storage: KeychainTokenStorage(keychain: keychain),
                                      refresher: OAuthTokenRefresher(tokenEndpoint: api.appendingPathComponent("v1/token"),
                                                                     appAttest: appAttest))
            // APP-ATTEST.md end
            return (response.statusCode, tokens)
        }
        #expect(status == 201)
        let login = try await server.post("v1/session/password", body: Self.signUpBody("ada"))
        try await tokens.store(AuthTokens(accessToken: try #require(login.json["access_token"] as? String),
                                          refreshToken: login.json["refresh_token"] as? String, expiresAt: Date()))
        let refreshed = try await f.run { try await tokens.forceRefresh() }
        #expect(refreshed.refreshToken != login.json["refresh_token"] as? String)

        // Another client over the same keychain (the app launched again) uses the same key.
        let appAttest = AppAttestClient(server: api, keychain: keychain)
        #expect(try await f.run { appAttest.isSupported })
        func signUp(_ name: String) async throws -> Int {
            var request = URLRequest(url: api.appendingPathComponent("v1/accounts"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Self.signUpBody(name)
            let marked = request
            return try await f.run { try await appAttest.data(for: marked).1.statusCode }
        }
        let keyID = try await f.run { try await appAttest.attestedKeyID() }
        #expect(try await signUp("kit-user-2") == 201)
        #expect(try await f.run { try await appAttest.attestedKeyID() } == keyID, "one key per install")
        let item = try #require(try await keychain.attributes(forKey: appAttest.keychainKey))
        #expect(item.accessibility == .afterFirstUnlockThisDeviceOnly)

        // A key the device no longer has (the app reinstalled, the device restored): DCError.invalidKey, a new key.
        let gone = Data(repeating: 0x42, count: 32).base64EncodedString()
        try await keychain.set(AppAttestClient.StoredKey(keyID: gone, attested: true), forKey: appAttest.keychainKey)
        #expect(try await signUp("kit-user-3") == 201)
        let replaced = try await f.run { try await appAttest.attestedKeyID() }
        #expect(replaced != gone && replaced != keyID)

        // A key the server no longer knows (attested on the device only): unknown_key, a new key.
        let unknownToServer = try await f.run { () async throws -> String in
            let service = DCAppAttestService.shared
            let key = try await service.generateKey()
            _ = try await service.attestKey(key, clientDataHash: Data(SHA256.hash(data: Data("not sent".utf8))))
            return key
        }
        try await keychain.set(AppAttestClient.StoredKey(keyID: unknownToServer, attested: true), forKey: appAttest.keychainKey)
        #expect(try await signUp("kit-user-4") == 201)
        #expect(try await f.run { try await appAttest.attestedKeyID() } != unknownToServer)
    }

    /// A server for the production environment refuses the development authority's attestations: the client reports
    /// the step and forgets the key.
    @Test func aRefusedAttestationNamesItsStep() async throws {
        guard let (f, server) = try await Self.start(environment: "production") else { return }
        defer { server.stop(); f.remove() }
        let keychain = Keychain(service: "org.latchkey.tests.app-attest", store: MemoryStore())
        let appAttest = AppAttestClient(server: server.baseURL, keychain: keychain)
        await #expect(throws: AppAttestClientError.refused(.environment)) {
            try await f.run { try await appAttest.attestedKeyID() }
        }
        #expect(try await keychain.data(forKey: appAttest.keychainKey) == nil)
        #expect(AppAttestClientError.refused(.environment).message(in: .korean).contains("environment"))
    }
}

/// docs/APP-ATTEST.md shows exactly the code the kit test runs.
@Test func theAppAttestDocumentShowsTheTestedCode() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let document = try String(contentsOf: root.appendingPathComponent("docs/APP-ATTEST.md"), encoding: .utf8)
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let blockStart = try #require(document.range(of: "```swift\n"))
    let blockEnd = try #require(document.range(of: "\n```", range: blockStart.upperBound..<document.endIndex))
    let documented = String(document[blockStart.upperBound..<blockEnd.lowerBound])
    let lines = source.components(separatedBy: "\n")
    let begin = try #require(lines.firstIndex { $0.hasSuffix("// APP-ATTEST.md begin") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("// APP-ATTEST.md end") })
    let region = lines[(begin + 1)..<end]
    let indent = region.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    #expect(documented == region.map { $0.isEmpty ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n"))
}
