import Foundation
import LatchkeyTestSupport
import LatchkeyWebAuthn
import Testing
@testable import Latchkey

/// `AccountManager` against a real `latchkey serve` (SQLite): the account, its sessions, its password and its
/// deletion, with the server's step-up challenge met by a real re-authentication and the request retried once.
@Suite("AccountManager against latchkey serve", .enabled(if: LatchkeyBinary.testsRun, LatchkeyBinary.skipReason), .offCooperativePool)
struct AccountManagerTests {
    static let password = AccountServer.password

    @Test func sessionsAreListedAndEndedOneByOneOrAllOthers() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let name = AccountServer.username("mina")
        try await server.createAccount(name, password: Self.password)
        let phone = try await server.signIn(name, password: Self.password, deviceName: "Mina's iPhone")
        let laptop = try await server.signIn(name, password: Self.password, deviceName: "Mina's MacBook")
        let tablet = try await server.signIn(name, password: Self.password, deviceName: "Mina's iPad")
        let tokens = try await server.tokens(phone)
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens,
                                        reauthentication: AccountReauthentication { _ in throw CancellationError() })

        let profile = try await account.account()
        #expect(profile.username == name && profile.signInMethods == [.password])
        #expect(profile.authenticatedAt != nil)

        let sessions = try await account.sessions()
        #expect(sessions.count == 3)
        #expect(sessions.filter(\.isCurrent).map(\.deviceName) == ["Mina's iPhone"])
        #expect(sessions.first?.isCurrent == true, "this device first")
        #expect(Set(sessions.map(\.deviceName)) == ["Mina's iPhone", "Mina's MacBook", "Mina's iPad"])
        #expect(sessions.allSatisfy { $0.method == .password && $0.authenticationMethods == ["pwd"] })
        #expect(sessions.allSatisfy { $0.clientAddress == "127.0.0.1" && $0.authenticatedAt != nil })

        // One other device: its refresh token stops at once.
        let macBook = try #require(sessions.first { $0.deviceName == "Mina's MacBook" })
        try await account.endSession(macBook)
        #expect(try await server.refresh(laptop.refreshToken) == "400 invalid_grant")
        #expect(try await account.sessions().count == 2)
        // Gone already, or never the account's: the same answer.
        await #expect(throws: AccountManagerError.sessionNotFound) { try await account.endSession(macBook) }
        await #expect(throws: AccountManagerError.sessionNotFound) { try await account.endSession(id: "no-such-session") }

        // All the others.
        #expect(try await account.endOtherSessions() == 1)
        #expect(try await server.refresh(tablet.refreshToken) == "400 invalid_grant")
        let left = try await account.sessions()
        #expect(left.count == 1 && left.first?.isCurrent == true)
        #expect(try await account.endOtherSessions() == 0)

        // This device's own: signed out here too.
        try await account.endSession(try #require(left.first))
        #expect(try await tokens.storedTokens() == nil)
        await #expect(throws: AccountManagerError.notSignedIn) { try await account.sessions() }
    }

    @Test func thePasswordChangeChecksTheCurrentOneAndEndsTheOtherSessions() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let name = AccountServer.username("ren")
        try await server.createAccount(name, password: Self.password)
        let phone = try await server.signIn(name, password: Self.password, deviceName: "Phone")
        let laptop = try await server.signIn(name, password: Self.password, deviceName: "Laptop")
        let account = KitAccountManager(baseURL: server.baseURL, tokens: try await server.tokens(phone),
                                        reauthentication: AccountReauthentication { _ in throw CancellationError() })

        await #expect(throws: AccountManagerError.incorrectPassword) {
            try await account.changePassword(current: "not my password", new: "a brand new password")
        }
        do {
            try await account.changePassword(current: Self.password, new: "short")
            Issue.record("a weak password was accepted")
        } catch {
            guard case .weakPassword = error else { throw error }
        }
        try await account.changePassword(current: Self.password, new: "a brand new password")

        await #expect(throws: PasswordSessionError.invalidCredentials) {
            _ = try await PasswordSessionClient(baseURL: server.baseURL).signIn(username: name, password: Self.password)
        }
        _ = try await PasswordSessionClient(baseURL: server.baseURL).signIn(username: name, password: "a brand new password")
        #expect(try await server.refresh(laptop.refreshToken) == "400 invalid_grant", "the other session ended")
        #expect(try await account.sessions().contains { $0.isCurrent }, "this one stays")
    }

    @Test func deletingStepsUpWithThePasswordRetriesOnceAndLeavesNothingOnTheServer() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (name, grant, tokens) = try await server.signedInAccount("sora")
        let prompts = AccountServer.Prompts()
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens,
                                        reauthentication: AccountServer.password(server, Self.password, prompts: prompts))
        try server.passStepUpMaxAge()

        try await account.deleteAccount()
        #expect(prompts.usernames == [name], "one prompt, for the account's user name")
        #expect(try await tokens.storedTokens() == nil)

        #expect(try await server.server.request("GET", "v1/me", bearer: grant.accessToken).status == 401)
        #expect(try await server.refresh(grant.refreshToken) == "400 invalid_grant")
        await #expect(throws: PasswordSessionError.invalidCredentials) {
            _ = try await PasswordSessionClient(baseURL: server.baseURL).signIn(username: name, password: Self.password)
        }
        // Again, with the old tokens: the session is gone.
        try await tokens.store(grant)
        await #expect(throws: AccountManagerError.notSignedIn) { try await account.deleteAccount() }
        #expect(try await tokens.storedTokens() == nil)
    }

    @Test func theStepUpRenewsTheSameSession() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (name, _, tokens) = try await server.signedInAccount("yuna")
        let prompts = AccountServer.Prompts()
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens,
                                        reauthentication: AccountServer.password(server, Self.password, prompts: prompts))
        let session = try #require(try await account.sessions().first)
        try server.passStepUpMaxAge()

        try await account.addPassword("another good password")   // no current password: the server steps up
        #expect(prompts.usernames == [name])
        let after = try await account.sessions()
        #expect(after.map(\.id) == [session.id], "the same session, not a new one")
        let renewed = try #require(after.first?.authenticatedAt)
        #expect(renewed > (session.authenticatedAt ?? .distantPast))
        _ = try await PasswordSessionClient(baseURL: server.baseURL).signIn(username: name, password: "another good password")
    }

    @Test func aCancelledReauthenticationDeletesNothing() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (name, _, tokens) = try await server.signedInAccount("jun")
        let prompts = AccountServer.Prompts()
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens,
                                        reauthentication: AccountServer.password(server, nil, prompts: prompts))
        try server.passStepUpMaxAge()

        await #expect(throws: AccountManagerError.canceled) { try await account.deleteAccount() }
        #expect(prompts.usernames == [name])
        #expect(try await tokens.storedTokens() != nil)
        #expect(try await account.account().username == name)

        // A wrong password: the sign-in's own error, nothing deleted.
        let wrong = KitAccountManager(baseURL: server.baseURL, tokens: tokens,
                                      reauthentication: AccountServer.password(server, "wrong password", prompts: prompts))
        await #expect(throws: AccountManagerError.incorrectPassword) { try await wrong.deleteAccount() }
        #expect(try await account.account().username == name)
    }

    @Test func aReauthenticationThatRenewsNothingIsRefusedAfterOneRetry() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (name, grant, tokens) = try await server.signedInAccount("hana")
        let calls = AccountServer.Prompts()
        // "Re-authenticates" by handing back the tokens it was given: the server still wants a recent sign-in.
        let stale = AccountReauthentication { challenge in
            calls.record("\(challenge.maxAge ?? -1)")
            return grant
        }
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens, reauthentication: stale)
        try server.passStepUpMaxAge()

        await #expect(throws: AccountManagerError.reauthenticationRequired(maxAge: 300)) { try await account.deleteAccount() }
        #expect(calls.usernames == ["300"], "run once, with the server's max_age")
        #expect(try await account.account().username == name)
    }

    @Test func aPasskeyAccountAddsAPasswordAfterAPasskeyStepUp() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        // The software authenticator reports the server's origin: http://localhost:<port>, the relying party localhost.
        var parts = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
        parts.host = "localhost"
        let passkeys = PasskeyClient(baseURL: try #require(parts.url),
                                     ceremony: SoftwareAuthenticator(store: InMemorySoftwareCredentialStore()),
                                     deviceName: "Laptop")
        let name = AccountServer.username("kai")
        let grant = try #require(try await passkeys.register(username: name).tokens)
        let tokens = try await server.tokens(grant)
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens, reauthentication: .passkey(passkeys))
        #expect(try await account.account().signInMethods == [.passkey])
        let session = try #require(try await account.sessions().first)
        #expect(session.deviceName == "Laptop" && session.method == .passkey)
        try server.passStepUpMaxAge()

        try await account.addPassword("a password as well")
        #expect(try await account.account().signInMethods == [.passkey, .password])
        let after = try await account.sessions()
        #expect(after.map(\.id) == [session.id], "the passkey renewed the same session")
        #expect(after.first?.authenticationMethods.contains("pwd") == false)
        _ = try await PasswordSessionClient(baseURL: server.baseURL).signIn(username: name, password: "a password as well")
    }
}

/// The server's step-up challenge as the kit reads it.
@Suite(.offCooperativePool) struct StepUpChallengeTests {
    static func challenge(_ header: String?, body: String = "{}", status: Int = 401) -> StepUpChallenge? {
        StepUpChallenge(status: status, wwwAuthenticate: header, body: Data(body.utf8), accessToken: "at")
    }

    @Test func theBearerChallengeGivesMaxAgeAndReason() throws {
        let header = #"Bearer error="insufficient_user_authentication", error_description="A \"recent\" sign-in, please", max_age=300"#
        let challenge = try #require(Self.challenge(header))
        #expect(challenge.maxAge == 300 && challenge.reason == #"A "recent" sign-in, please"# && challenge.accessToken == "at")
        #expect(!challenge.description.contains("at,") && challenge.description == "StepUpChallenge(maxAge: 300)")
        // Case-insensitive scheme and names, token values, other challenges after it.
        let other = try #require(Self.challenge(#"bearer ERROR=insufficient_user_authentication,max_age=5, DPoP algs="ES256""#))
        #expect(other.maxAge == 5 && other.reason == nil)
    }

    @Test func theBodyServesWhenTheHeaderDoesNot() throws {
        let body = #"{"error":"insufficient_user_authentication","error_description":"Sign in again.","max_age":60}"#
        let challenge = try #require(Self.challenge(nil, body: body))
        #expect(challenge.maxAge == 60 && challenge.reason == "Sign in again.")
    }

    @Test func anythingElseIsNoChallenge() {
        #expect(Self.challenge(#"Bearer error="invalid_token""#, body: #"{"error":"invalid_token"}"#) == nil)
        #expect(Self.challenge(#"Bearer error="insufficient_user_authentication""#, status: 403) == nil)
        #expect(Self.challenge(#"Basic realm="x", error="insufficient_user_authentication""#) == nil)
        #expect(Self.challenge(nil, body: "not json") == nil)
    }
}
