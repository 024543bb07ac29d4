import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
import Latchkey
@testable import LatchkeyServer

/// The client kit's software authenticator, with passkeys kept in a real FileVault keychain, against
/// the server's relying party.
@Suite(.offCooperativePool) struct PasskeyClientTests {
    @Test func keychainBackedPasskeysSignInToTheRelyingParty() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-passkeys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let vault = try FileVault(url: dir.appendingPathComponent("test.vault"), kdf: .testing)
        try vault.unlock(passphrase: "correct horse")
        let store = KeychainPasskeyStore(store: vault)
        let fixture = try PasskeyFixture()
        let authenticator = SoftwareAuthenticator(store: store, now: fixture.clock.function)

        let options = try await fixture.rp.registrationOptions(user: PasskeyFixture.user)
        let stored = try await fixture.rp.verifyRegistration(try authenticator.register(options, origin: PasskeyFixture.origin))
        let saved = try store.credentials(forRelyingParty: "localhost")
        #expect(saved.count == 1 && saved[0].id == stored.id)
        #expect(!saved[0].description.contains(saved[0].privateKey.base64URLEncodedString()))

        let request = try await fixture.rp.authenticationOptions()
        let assertion = try authenticator.authenticate(request, origin: PasskeyFixture.origin)
        let result = try await fixture.rp.verifyAuthentication(assertion) { $0 == stored.id ? stored : nil }
        #expect(result.credential.signCount == 1)
        // The counter lives in the keychain item.
        #expect(try store.credentials(forRelyingParty: "localhost")[0].signCount == 1)
        #expect(try store.credentials(forRelyingParty: "example.com").isEmpty)
    }
}
