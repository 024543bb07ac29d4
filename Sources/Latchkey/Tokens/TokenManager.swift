import Foundation

/// Keeps an app's OAuth tokens: stores them (in the keychain by default), hands out valid ones and
/// refreshes them shortly before they expire.
///
/// **One refresh at a time.** With refresh-token rotation every refresh token works once, so two
/// parallel refreshes would log the user out. All callers that arrive while a refresh is running await
/// that same refresh.
///
/// ```swift
/// let tokens = TokenManager(storage: KeychainTokenStorage(service: "com.example.app"),
///                           refresher: OAuthTokenRefresher(tokenEndpoint: url, clientID: "ios"))
/// let access = try await tokens.validTokens().accessToken
/// ```
public actor TokenManager {
    /// Refresh when the access token expires within this many seconds (default 300).
    public let refreshWindow: TimeInterval
    private let storage: any TokenStorage
    private let refresher: any TokenRefresher
    private let now: @Sendable () -> Date
    private var inFlight: Task<AuthTokens, any Error>?
    /// Bumped by every refresh and by `logout()`, so a refresh that outlived a logout stores nothing.
    private var generation = 0
    /// How many refresh requests this manager has started (for diagnostics and tests).
    public private(set) var refreshCount = 0

    /// Creates a manager.
    /// - Parameters:
    ///   - storage: where the tokens live.
    ///   - refresher: how they are refreshed.
    ///   - refreshWindow: refresh when expiry is this close (seconds).
    ///   - now: the clock (injected in tests).
    public init(storage: any TokenStorage, refresher: any TokenRefresher, refreshWindow: TimeInterval = 300,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.refresher = refresher
        self.refreshWindow = refreshWindow
        self.now = now
    }

    /// Stores a new token set (after a login), replacing what was stored.
    public func store(_ tokens: AuthTokens) throws(TokenManagerError) {
        let data: Data
        do { data = try JSONEncoder().encode(tokens) } catch { throw .storage("encoding failed") }
        try storage.save(data)
    }

    /// Stores the tokens a sign-in returned (`PasskeyClient.signIn()`, `AppleSignIn`, `PasswordSessionClient`), the
    /// expiry counted from `expiresIn` on this manager's clock (an hour when the server did not say). With
    /// `keepingRefreshToken` (a re-authentication of the same session), a grant without a refresh token keeps the
    /// stored one.
    public func store(_ grant: TokenGrant, keepingRefreshToken: Bool = false) throws(TokenManagerError) {
        let kept = keepingRefreshToken && grant.refreshToken == nil ? (try? storedTokens())?.refreshToken : nil
        try store(AuthTokens(accessToken: grant.accessToken, refreshToken: grant.refreshToken ?? kept,
                             expiresAt: now().addingTimeInterval(grant.expiresIn ?? 3600), tokenType: grant.tokenType,
                             scope: grant.scope))
    }

    /// The stored tokens without refreshing, or `nil` when logged out. Corrupt storage is deleted and
    /// reported as `.corruptStoredTokens`.
    public func storedTokens() throws(TokenManagerError) -> AuthTokens? {
        guard let data = try storage.load() else { return nil }
        do {
            return try JSONDecoder().decode(AuthTokens.self, from: data)
        } catch {
            try? storage.delete()
            throw .corruptStoredTokens
        }
    }

    /// True when tokens are stored (they may need a refresh).
    public var hasTokens: Bool {
        (try? storedTokens()) != nil
    }

    /// Tokens that are valid for at least `refreshWindow` seconds, refreshing first when needed.
    ///
    /// - Throws: `.loggedOut` when nothing is stored or the server refused the refresh token (the tokens
    ///   are then deleted); `.corruptStoredTokens` when storage held something undecodable (deleted too);
    ///   `.refreshFailed` when a needed refresh failed for another reason and the access token has expired.
    ///   If that refresh fails but the access token has not expired yet, the current tokens are returned.
    public func validTokens() async throws(TokenManagerError) -> AuthTokens {
        if let inFlight { return try await Self.result(of: inFlight) }
        guard let tokens = try storedTokens() else { throw .loggedOut }
        guard tokens.expires(within: refreshWindow, now: now()) else { return tokens }
        return try await refresh(tokens)
    }

    /// Refreshes now, whatever the expiry (joins a refresh already running).
    public func forceRefresh() async throws(TokenManagerError) -> AuthTokens {
        if let inFlight { return try await Self.result(of: inFlight) }
        guard let tokens = try storedTokens() else { throw .loggedOut }
        return try await refresh(tokens)
    }

    /// Deletes every stored token. Later calls fail with `.loggedOut` until `store(_:)`.
    public func logout() throws(TokenManagerError) {
        inFlight?.cancel()
        inFlight = nil
        generation += 1
        try storage.delete()
    }

    // MARK: - Refresh

    private func refresh(_ tokens: AuthTokens) async throws(TokenManagerError) -> AuthTokens {
        guard let refreshToken = tokens.refreshToken else {
            if tokens.isExpired(now: now()) {
                try? storage.delete()
                throw .loggedOut
            }
            return tokens
        }
        generation += 1
        let mine = generation
        let task = Task { try await self.performRefresh(tokens, refreshToken: refreshToken, generation: mine) }
        inFlight = task
        return try await Self.result(of: task)
    }

    /// Runs inside the single in-flight task; stores the outcome and clears the in-flight slot.
    private func performRefresh(_ tokens: AuthTokens, refreshToken: String, generation mine: Int) async throws
        -> AuthTokens {
        refreshCount += 1
        defer { if generation == mine { inFlight = nil } }
        let grant: TokenGrant
        do {
            grant = try await refresher.refresh(using: refreshToken, scope: tokens.scope)
        } catch .invalidGrant {
            if generation == mine { try? storage.delete() }
            throw TokenManagerError.loggedOut
        } catch {
            if !tokens.isExpired(now: now()) { return tokens }
            throw TokenManagerError.refreshFailed(error)
        }
        guard !grant.accessToken.isEmpty else {
            if !tokens.isExpired(now: now()) { return tokens }
            throw TokenManagerError.refreshFailed(.badResponse("empty access_token"))
        }
        guard generation == mine else { throw TokenManagerError.loggedOut }  // logged out meanwhile
        let expiresIn = grant.expiresIn ?? 3600
        let fresh = AuthTokens(accessToken: grant.accessToken,
                               refreshToken: grant.refreshToken ?? refreshToken,
                               expiresAt: now().addingTimeInterval(expiresIn),
                               tokenType: grant.tokenType,
                               scope: grant.scope ?? tokens.scope)
        try store(fresh)
        return fresh
    }

    private static func result(of task: Task<AuthTokens, any Error>) async throws(TokenManagerError) -> AuthTokens {
        do {
            return try await task.value
        } catch let error as TokenManagerError {
            throw error
        } catch {
            throw .loggedOut  // canceled by logout()
        }
    }
}
