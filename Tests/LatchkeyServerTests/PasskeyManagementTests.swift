import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// Renaming passkeys, and what the list shows about each: last use, backup state (BE/BS), authenticator.
@Suite("Passkey management", .offCooperativePool)
struct PasskeyManagementTests {
    func passkeys(_ f: PasskeyEndpointFixture, _ access: String) async throws -> [[String: Any]] {
        let list = await f.request("GET", "/v1/passkeys", bearer: access)
        try #require(list.status == 200, "\(list.bodyText)")
        return try #require(list.object["passkeys"] as? [[String: Any]])
    }

    func rename(_ f: PasskeyEndpointFixture, _ id: String, _ name: Any, bearer: String?) async -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["name": name])) ?? Data()
        return await f.request("PATCH", "/v1/passkeys/\(id)", body: body, bearer: bearer)
    }

    @Test(arguments: StorageEngine.allCases)
    func renameIsStoredAndListed(_ engine: StorageEngine) async throws {
        guard let f = try await PasskeyEndpointFixture.make(engine) else { return }
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let created = try await f.register(key, username: "alice")
        let access = try #require(created.object["access_token"] as? String)
        let id = try #require(created.object["id"] as? String)
        #expect(try await passkeys(f, access).first?["name"] as? String == "Passkey")

        // Trimmed, stored in NFC ("e" + U+0301 becomes "é"), Korean and emoji with ZWJ accepted.
        let renamed = await rename(f, id, "  Cafe\u{301} 노트북 👩‍💻  ", bearer: access)
        #expect(renamed.status == 200, "\(renamed.bodyText)")
        #expect(renamed.object["name"] as? String == "Café 노트북 👩‍💻")
        #expect(renamed.object["id"] as? String == id)
        #expect(renamed.header("Cache-Control") == "no-store")
        #expect(try await passkeys(f, access).first?["name"] as? String == "Café 노트북 👩‍💻")
        // Another server process on the same database sees the new name.
        let other = try f.base.test.openAnother()
        #expect(try other.passkeys(accountID: try #require(try other.account(usernameKey: Username.key("alice"))).id)
            .first?.name == "Café 노트북 👩‍💻")
    }

    @Test func unacceptableNamesAreRefusedWithTheirReason() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let created = try await f.register(key, username: "bob")
        let access = try #require(created.object["access_token"] as? String)
        let id = try #require(created.object["id"] as? String)

        let cases: [(String, String)] = [
            ("   ", "The passkey name is empty."),
            (String(repeating: "a", count: 65), "The passkey name is longer than 64 characters."),
            (String(repeating: "가", count: 86), "The passkey name is longer than 64 characters."),
            ("tab\there", "The passkey name contains a character that is not allowed (U+0009)."),
            ("evil\u{202E}txt.exe", "The passkey name contains a character that is not allowed (U+202E)."),
            ("line\u{2028}break", "The passkey name contains a character that is not allowed (U+2028)."),
            ("private\u{E000}", "The passkey name contains a character that is not allowed (U+E000)."),
        ]
        for (name, reason) in cases {
            let answer = await rename(f, id, name, bearer: access)
            #expect(answer.status == 400, "\(name)")
            #expect(answer.object["error"] as? String == "invalid_name")
            #expect(answer.object["error_description"] as? String == reason)
        }
        // 64 family-emoji graphemes are 64 characters but over 256 bytes.
        let wide = await rename(f, id, String(repeating: "👨‍👩‍👧", count: 64), bearer: access)
        #expect(wide.status == 400 && wide.object["error"] as? String == "invalid_name")
        // Exactly 64 characters is fine.
        #expect(await rename(f, id, String(repeating: "가", count: 64), bearer: access).status == 200)
        // Not a string, or no body: a malformed request.
        #expect(await rename(f, id, 5, bearer: access).status == 400)
        #expect(await f.request("PATCH", "/v1/passkeys/\(id)", body: Data("{}".utf8), bearer: access).status == 400)
        #expect(try await passkeys(f, access).first?["name"] as? String == String(repeating: "가", count: 64))
    }

    @Test func onlyTheOwnerRenames() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let aliceKey = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let alice = try await f.register(aliceKey, username: "alice")
        let aliceID = try #require(alice.object["id"] as? String)
        let mallory = try await f.register(SoftwareAuthenticator(store: InMemorySoftwareCredentialStore()), username: "mallory")
        let malloryToken = try #require(mallory.object["access_token"] as? String)

        #expect(await rename(f, aliceID, "mine now", bearer: malloryToken).status == 404)
        #expect(await rename(f, "no-such-passkey", "x", bearer: malloryToken).status == 404)
        let anonymous = await rename(f, aliceID, "x", bearer: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.header("WWW-Authenticate")?.contains("invalid_token") == true)
        let aliceToken = try #require(alice.object["access_token"] as? String)
        #expect(try await passkeys(f, aliceToken).first?["name"] as? String == "Passkey")
        // The rename is audited.
        #expect(await rename(f, aliceID, "Laptop", bearer: aliceToken).status == 200)
        let events = try f.base.test.database.withConnection { conn in
            try conn.execute("SELECT event, detail FROM audit_events WHERE event = 'passkey_renamed'").map { try $0.text(1) }
        }
        #expect(events == [aliceID])
    }

    @Test(arguments: StorageEngine.allCases)
    func theListShowsLastUseAndTheBackupStateOfTheLatestAssertion(_ engine: StorageEngine) async throws {
        guard let f = try await PasskeyEndpointFixture.make(engine) else { return }
        defer { f.base.test.cleanup() }
        var synced = SoftwareAuthenticator.Behaviour()
        synced.backupEligible = true
        let aaguid = Data((1...16).map { UInt8($0) })
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), aaguid: aaguid, behaviour: synced)
        let created = try await f.register(key, username: "carol")
        let access = try #require(created.object["access_token"] as? String)
        var first = try #require(try await passkeys(f, access).first)
        #expect(first["last_used_at"] == nil)
        #expect(first["backup_eligible"] as? Bool == true)
        #expect(first["backed_up"] as? Bool == false)
        // Without metadata the authenticator is its AAGUID.
        #expect(first["aaguid"] as? String == "01020304-0506-0708-090a-0b0c0d0e0f10")
        #expect(first["authenticator"] as? String == "01020304-0506-0708-090a-0b0c0d0e0f10")

        // The passkey gets synced; the next sign-in says so (BS), and the use is timed.
        key.behaviour.backedUp = true
        f.base.clock.advance(by: 60)
        #expect(try await f.signIn(try await f.assertion(key)).status == 200)
        first = try #require(try await passkeys(f, access).first)
        #expect(first["backed_up"] as? Bool == true)
        let used = try #require(first["last_used_at"] as? String)
        #expect(used == PasskeyService.timestamp(f.base.clock.now()))

        // Backup can also be lost (BS cleared).
        key.behaviour.backedUp = false
        #expect(try await f.signIn(try await f.assertion(key)).status == 200)
        #expect(try await passkeys(f, access).first?["backed_up"] as? Bool == false)
    }

    @Test func theZeroAAGUIDHasNoAuthenticatorName() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let created = try await f.register(SoftwareAuthenticator(store: InMemorySoftwareCredentialStore()), username: "dave")
        let access = try #require(created.object["access_token"] as? String)
        let first = try #require(try await passkeys(f, access).first)
        #expect(first["authenticator"] == nil)
        #expect(first["aaguid"] as? String == "00000000-0000-0000-0000-000000000000")
    }

    @Test func nameRulesInIsolation() throws {
        #expect(try PasskeyName.validated(" Work\u{200C}laptop ") == "Work\u{200C}laptop")
        #expect(throws: PasskeyNameError.empty) { try PasskeyName.validated("\n\t ") }
        #expect(throws: PasskeyNameError.forbiddenCharacter(0x00)) { try PasskeyName.validated("a\u{0}b") }
        #expect(throws: PasskeyNameError.forbiddenCharacter(0xFEFF)) { try PasskeyName.validated("a\u{FEFF}b") }
        #expect(PasskeyName.truncated(String(repeating: "x", count: 100)).count == 64)
        #expect(PasskeyName.truncated("\u{202E}\u{202E}") == "Passkey")
        #expect(PasskeyName.truncated("Key\u{202E} 5") == "Key 5")
        #expect(PasskeyNameError.tooLong(maximumCharacters: 64).errorDescription?.isEmpty == false)
    }
}
