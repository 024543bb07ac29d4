import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
import LatchkeyKeychain
@testable import Latchkey

/// A refresher that records every call, answers from a script and can hold answers behind a gate.
private final class ScriptedRefresher: TokenRefresher {
    enum Answer: Sendable {
        case rotate   // new access token and a new refresh token
        case keep     // new access token, no new refresh token
        case fail(TokenRefreshError)
    }

    private let state = Locked<(calls: [String], answer: Answer)>((calls: [], answer: .rotate))
    private let gate: Gate?

    init(answer: Answer = .rotate, gate: Gate? = nil) {
        self.gate = gate
        state.withLock { $0.answer = answer }
    }

    var calls: [String] { state.withLock { $0.calls } }
    func answer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    func refresh(using refreshToken: String, scope: String?) async throws(TokenRefreshError) -> TokenGrant {
        let (count, answer) = state.withLock { state in
            state.calls.append(refreshToken)
            return (state.calls.count, state.answer)
        }
        if let gate { await gate.wait() }
        switch answer {
        case .rotate:
            return TokenGrant(accessToken: "access-\(count)", expiresIn: 3600, refreshToken: "refresh-\(count)")
        case .keep:
            return TokenGrant(accessToken: "access-\(count)", expiresIn: 3600, refreshToken: nil)
        case .fail(let error):
            throw error
        }
    }
}

/// Holds waiters until opened.
private actor Gate {
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if open { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func openNow() {
        open = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}

@Suite(.offCooperativePool) struct TokenManagerTests {
    let clock = TestClock()

    private func storage(expiringIn seconds: TimeInterval, refreshToken: String? = "refresh-0") throws
        -> MemoryTokenStorage {
        let tokens = AuthTokens(accessToken: "access-0", refreshToken: refreshToken,
                                expiresAt: clock.now.addingTimeInterval(seconds), scope: "notes")
        return MemoryTokenStorage(try JSONEncoder().encode(tokens))
    }

    private func stored(_ storage: MemoryTokenStorage) throws -> AuthTokens? {
        try storage.load().map { try JSONDecoder().decode(AuthTokens.self, from: $0) }
    }

    @Test func hundredConcurrentCallersNearExpiryShareOneRefresh() async throws {
        let gate = Gate()
        let refresher = ScriptedRefresher(gate: gate)
        let storage = try storage(expiringIn: 60)  // inside the 5-minute window
        let manager = TokenManager(storage: storage, refresher: refresher, now: clock.closure)
        let results = try await withThrowingTaskGroup(of: AuthTokens.self) { group in
            for _ in 0..<100 {
                group.addTask { try await manager.validTokens() }
            }
            // Hold the refresh until the callers have piled up behind it.
            try await Task.sleep(for: .milliseconds(100))
            await gate.openNow()
            var all: [AuthTokens] = []
            for try await tokens in group { all.append(tokens) }
            return all
        }
        #expect(results.count == 100)
        #expect(refresher.calls == ["refresh-0"])
        #expect(await manager.refreshCount == 1)
        #expect(Set(results.map(\.accessToken)) == ["access-1"])
        #expect(try stored(storage)?.refreshToken == "refresh-1")
    }

    @Test func tokensOutsideTheWindowAreNotRefreshed() async throws {
        let refresher = ScriptedRefresher()
        let manager = TokenManager(storage: try storage(expiringIn: 3600), refresher: refresher, now: clock.closure)
        #expect(try await manager.validTokens().accessToken == "access-0")
        #expect(refresher.calls.isEmpty)
    }

    @Test func expiryTriggersRefreshOnceTheClockReachesTheWindow() async throws {
        let refresher = ScriptedRefresher()
        let manager = TokenManager(storage: try storage(expiringIn: 900), refresher: refresher,
                                   refreshWindow: 300, now: clock.closure)
        #expect(try await manager.validTokens().accessToken == "access-0")
        clock.advance(599)  // 301 s left
        #expect(try await manager.validTokens().accessToken == "access-0")
        clock.advance(2)    // 299 s left
        let fresh = try await manager.validTokens()
        #expect(fresh.accessToken == "access-1")
        #expect(fresh.expiresAt == clock.now.addingTimeInterval(3600))
        #expect(fresh.scope == "notes")
        clock.advance(7200)  // long expired
        #expect(try await manager.validTokens().accessToken == "access-2")
        #expect(refresher.calls.count == 2)
    }

    @Test func rotationStoresAndUsesTheNewRefreshToken() async throws {
        let refresher = ScriptedRefresher(answer: .rotate)
        let storage = try storage(expiringIn: 10)
        let manager = TokenManager(storage: storage, refresher: refresher, now: clock.closure)
        _ = try await manager.validTokens()
        #expect(try stored(storage)?.refreshToken == "refresh-1")
        _ = try await manager.forceRefresh()
        #expect(refresher.calls == ["refresh-0", "refresh-1"])
        #expect(try stored(storage)?.refreshToken == "refresh-2")
        // Without rotation the old refresh token is kept.
        refresher.answer(.keep)
        _ = try await manager.forceRefresh()
        #expect(try stored(storage)?.refreshToken == "refresh-2")
        #expect(try stored(storage)?.accessToken == "access-3")
    }

    @Test func refusedRefreshDeletesTokensAndLogsOut() async throws {
        let refresher = ScriptedRefresher(answer: .fail(.invalidGrant))
        let storage = try storage(expiringIn: 30)
        let manager = TokenManager(storage: storage, refresher: refresher, now: clock.closure)
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        #expect(try storage.load() == nil)
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        #expect(refresher.calls.count == 1)
        #expect(await manager.hasTokens == false)
    }

    @Test func corruptStoredJSONIsATypedErrorThenLoggedOut() async throws {
        for garbage in [Data("{not json".utf8), Data(#"{"access_token":"a","expires_at":"yesterday"}"#.utf8), Data()] {
            let storage = MemoryTokenStorage(garbage)
            let manager = TokenManager(storage: storage, refresher: ScriptedRefresher(), now: clock.closure)
            await #expect(throws: TokenManagerError.corruptStoredTokens) { try await manager.validTokens() }
            #expect(try storage.load() == nil)
            await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        }
    }

    @Test func transientFailureKeepsUnexpiredTokensButNotExpiredOnes() async throws {
        let refresher = ScriptedRefresher(answer: .fail(.network("URLError -1004")))
        let storage = try storage(expiringIn: 60)
        let manager = TokenManager(storage: storage, refresher: refresher, now: clock.closure)
        #expect(try await manager.validTokens().accessToken == "access-0")
        clock.advance(120)
        await #expect(throws: TokenManagerError.refreshFailed(.network("URLError -1004"))) {
            try await manager.validTokens()
        }
        #expect(try storage.load() != nil)  // kept for a retry
        refresher.answer(.rotate)
        #expect(try await manager.validTokens().accessToken.hasPrefix("access-"))
    }

    @Test func expiredTokensWithoutRefreshTokenAreLoggedOut() async throws {
        let storage = try storage(expiringIn: -1, refreshToken: nil)
        let manager = TokenManager(storage: storage, refresher: ScriptedRefresher(), now: clock.closure)
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        #expect(try storage.load() == nil)
    }

    @Test func logoutDeletesEveryStoredToken() async throws {
        let storage = try storage(expiringIn: 3600)
        let manager = TokenManager(storage: storage, refresher: ScriptedRefresher(), now: clock.closure)
        #expect(await manager.hasTokens)
        try await manager.logout()
        #expect(try storage.load() == nil)
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        try await manager.store(AuthTokens(accessToken: "new", refreshToken: "r", expiresAt: clock.now + 3600))
        #expect(try await manager.validTokens().accessToken == "new")
    }

    @Test func authTokensUseISO8601AndHideSecrets() throws {
        let tokens = AuthTokens(accessToken: "secret-access", refreshToken: "secret-refresh",
                                expiresAt: Date(timeIntervalSince1970: 1_800_000_000.25), scope: "a b")
        let json = String(decoding: try JSONEncoder().encode(tokens), as: UTF8.self)
        #expect(json.contains(#""expires_at":"2027-01-15T08:00:00.250Z""#))
        #expect(try JSONDecoder().decode(AuthTokens.self, from: Data(json.utf8)) == tokens)
        let plain = #"{"access_token":"a","expires_at":"2027-01-15T08:00:00Z"}"#
        let decoded = try JSONDecoder().decode(AuthTokens.self, from: Data(plain.utf8))
        #expect(decoded.tokenType == "Bearer")
        #expect(decoded.refreshToken == nil)
        for text in [tokens.description, tokens.debugDescription, String(reflecting: tokens), dumped(tokens)] {
            #expect(!text.contains("secret"))
        }
    }

    private func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}

#if !LATCHKEY_APPLE_FRAMEWORKS
/// TokenManager backed by the real keychain (a FileVault in a temporary directory).
@Suite(.offCooperativePool) struct TokenManagerKeychainTests {
    @Test func tokensLiveInTheKeychainWithTheChosenAccessibility() async throws {
        let directory = try ChildProcess.temporaryDirectory("tokens-keychain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let vault = try FileVault(url: directory.appendingPathComponent("vault.sqlite"),
                                  keyProvider: InMemoryVaultKeyProvider(), kdf: .testing)
        try vault.unlock()
        let clock = TestClock()
        for accessibility in TokenAccessibility.allCases {
            let storage = KeychainTokenStorage(service: "org.latchkey.test.tokens", store: vault,
                                               key: "tokens-\(accessibility.rawValue)", accessibility: accessibility)
            let manager = TokenManager(storage: storage, refresher: ScriptedRefresherForKeychain(), now: clock.closure)
            try await manager.store(AuthTokens(accessToken: "a0", refreshToken: "r0", expiresAt: clock.now + 10))
            let info = try #require(try await storage.keychain.attributes(forKey: storage.key))
            #expect(info.accessibility.rawValue == (accessibility == .whenUnlockedThisDeviceOnly ? "aku" : "cku"))
            #expect(try await manager.validTokens().accessToken == "a1")
            #expect(try storage.load().map { try JSONDecoder().decode(AuthTokens.self, from: $0).refreshToken } == "r1")
            try await manager.logout()
            #expect(try storage.load() == nil)
        }
        // Locked keychain: whenUnlocked items cannot be read, afterFirstUnlock ones still can.
        let unlockedOnly = KeychainTokenStorage(service: "org.latchkey.test.tokens", store: vault, key: "u")
        let background = KeychainTokenStorage(service: "org.latchkey.test.tokens", store: vault, key: "b",
                                              accessibility: .afterFirstUnlockThisDeviceOnly)
        try unlockedOnly.save(Data("{}".utf8))
        try background.save(Data("{}".utf8))
        vault.lock()
        #expect(throws: TokenManagerError.self) { try unlockedOnly.load() }
        #expect(try background.load() == Data("{}".utf8))
    }
}

private struct ScriptedRefresherForKeychain: TokenRefresher {
    func refresh(using refreshToken: String, scope: String?) async throws(TokenRefreshError) -> TokenGrant {
        let next = Int(refreshToken.dropFirst()).map { $0 + 1 } ?? 99
        return TokenGrant(accessToken: "a\(next)", expiresIn: 3600, refreshToken: "r\(next)")
    }
}
#endif
