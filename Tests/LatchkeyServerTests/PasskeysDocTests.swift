import Foundation
import LatchkeyTestSupport
import Testing
// Only the public API, as an integrator sees it (no @testable here).
import LatchkeyServer
import LatchkeyWebAuthn

/// The integration in docs/PASSKEYS.md, run as written (the region between the markers is compared with the
/// document's first Swift block, so the document cannot drift from code that compiles and passes).
@Suite(.offCooperativePool) struct PasskeysDocTests {
    /// Stands in for the web page: options as JSON in, `credential.toJSON()` out, through the software authenticator.
    struct Browser {
        let authenticator = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let origin = "https://example.com"

        func create(_ options: PublicKeyCredentialCreationOptions) async throws -> Data {
            let parsed = try JSONDecoder().decode(PublicKeyCredentialCreationOptions.self, from: try JSONEncoder().encode(options))
            return try JSONEncoder().encode(try authenticator.register(parsed, origin: origin))
        }

        func get(_ options: PublicKeyCredentialRequestOptions) async throws -> Data {
            let parsed = try JSONDecoder().decode(PublicKeyCredentialRequestOptions.self, from: try JSONEncoder().encode(options))
            return try JSONEncoder().encode(try authenticator.authenticate(parsed, origin: origin))
        }
    }

    @Test func theDocumentedIntegrationRuns() async throws {
        let browser = Browser()
        // PASSKEYS.md begin
        let rp = try WebAuthnRelyingParty(configuration: WebAuthnConfiguration(
            relyingPartyID: "example.com", relyingPartyName: "Example",
            allowedOrigins: ["https://example.com"], userVerification: .required))
        var table: [Data: Data] = [:] // your database: credential id → StoredCredential as JSON

        // 1. Registration options for a new user, sent to the page as JSON.
        let user = UserEntity(id: WebAuthnRelyingParty.makeUserHandle(), name: "alice", displayName: "Alice")
        let creation = try await rp.registrationOptions(user: user)
        // The page calls navigator.credentials.create() and posts credential.toJSON() back.
        let registrationJSON = try await browser.create(creation)

        // 2. Verify the registration and store the credential record.
        let credential = try await rp.verifyRegistration(try RegistrationResponse(json: registrationJSON),
                                                         isRegistered: { [table] in table[$0] != nil })
        table[credential.id] = try JSONEncoder().encode(credential)

        // 3. Sign-in options: no user named, the browser offers the passkeys it has for example.com.
        let request = try await rp.authenticationOptions()
        let assertionJSON = try await browser.get(request)

        // 4. Verify the assertion against the stored record, then store the updated record.
        let assertion = try AuthenticationResponse(json: assertionJSON)
        let stored = try table[assertion.rawId.data].map { try JSONDecoder().decode(StoredCredential.self, from: $0) }
        let result = try await rp.verifyAuthentication(assertion, lookup: { _ in stored })
        table[result.credential.id] = try JSONEncoder().encode(result.credential)
        // Signed in: result.credential.userHandle is the user's id.
        // PASSKEYS.md end

        #expect(result.credential.userHandle == user.id.data && result.userVerified)
        #expect(result.credential.signCount == 1 && table.count == 1)
        let saved = try JSONDecoder().decode(StoredCredential.self, from: try #require(table[credential.id]))
        #expect(saved == result.credential)
        // The challenge was single-use: the same assertion does not verify twice.
        await #expect(throws: WebAuthnError.unknownChallenge) {
            try await rp.verifyAuthentication(assertion, lookup: { _ in saved })
        }
    }

    @Test func theDocumentShowsExactlyThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/PASSKEYS.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)

        let blockStart = try #require(document.range(of: "```swift\n"))
        let blockEnd = try #require(document.range(of: "\n```", range: blockStart.upperBound..<document.endIndex))
        let documented = String(document[blockStart.upperBound..<blockEnd.lowerBound])

        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// PASSKEYS.md begin") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// PASSKEYS.md end") })
        let region = lines[(begin + 1)..<end]
        let indent = region.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        let tested = region.map { $0.isEmpty ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")

        #expect(documented == tested)
        #expect(tested.components(separatedBy: "\n").count < 40)
    }
}
