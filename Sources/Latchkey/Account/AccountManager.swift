import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The signed-in account's life on a Latchkey server, from the app: who it is (`account()`), its signed-in devices
/// (`sessions()`, `endSession(_:)`, `endOtherSessions()`), its password (`changePassword(current:new:)`,
/// `addPassword(_:)`) and its deletion (`deleteAccount()`), which App Store Review Guideline 5.1.1(v) requires of an
/// app that creates accounts.
///
/// Each request carries `tokens`' access token. When the server wants a recent sign-in first (`401` with
/// `WWW-Authenticate: Bearer error="insufficient_user_authentication", max_age=N`, RFC 9470), the manager runs
/// `reauthentication` — a password prompt, a passkey through the system's sheet, Sign in with Apple — with the access
/// token as its Bearer, so the server renews the same session; the new tokens go to `tokens`, and the request is sent
/// once more. A second demand is `.reauthenticationRequired`. A session the server no longer knows is `.notSignedIn`
/// (the stored tokens are then removed).
///
/// After the server deleted the account, the manager removes what it left on the device: the tokens and every part of
/// `deviceData` (keychain items, the Apple user and its revocation observations, the trusted biometric state, the app
/// lock's session, the on-device login, the app's own data).
///
/// ```swift
/// let account = AccountManager(baseURL: api, tokens: tokens,
///                              reauthentication: .passkey(PasskeyClient(baseURL: api, ceremony: PlatformPasskeyCeremony())),
///                              deviceData: AccountDeviceData(keychains: [notes], appleSignIn: apple, appLock: lock))
/// for session in try await account.sessions() where !session.isCurrent { print(session.deviceName ?? "?") }
/// try await account.endOtherSessions()
/// try await account.deleteAccount()   // the server's account, then this device's data
/// ```
public struct AccountManager: Sendable {
    /// The server (`https://api.example.com`; the paths `v1/...` are appended).
    public let baseURL: URL
    /// The session's tokens.
    public let tokens: TokenManager
    /// How the user signs in again when the server asks.
    public let reauthentication: AccountReauthentication
    /// What the account leaves on this device besides its tokens.
    public let deviceData: AccountDeviceData
    let http: AccountHTTP

    public init(baseURL: URL, tokens: TokenManager, reauthentication: AccountReauthentication,
                deviceData: AccountDeviceData = AccountDeviceData(), session: URLSession = .shared) {
        self.baseURL = baseURL
        self.tokens = tokens
        self.reauthentication = reauthentication
        self.deviceData = deviceData
        http = AccountHTTP(baseURL: baseURL, session: session)
    }

    /// The same manager with another re-authentication (a screen that shows its progress wraps the app's).
    public func reauthenticating(with reauthentication: AccountReauthentication) -> AccountManager {
        AccountManager(baseURL: baseURL, tokens: tokens, reauthentication: reauthentication, deviceData: deviceData,
                       session: http.session)
    }

    // MARK: - The account

    /// The signed-in account (`GET /v1/me`): user name, sign-in methods, when the session last signed in.
    public func account() async throws(AccountManagerError) -> AccountProfile {
        let answer = try await send("GET", "v1/me")
        guard answer.status == 200 else { throw answer.rejection }
        return try answer.decode(AccountProfile.self, "account")
    }

    /// Changes the password (`POST /v1/me/password`): with `current`, the server checks it; without, the server asks
    /// for a recent sign-in (step-up) instead. The server ends the account's other sessions; this one stays.
    public func changePassword(current: String?, new: String) async throws(AccountManagerError) {
        struct Body: Encodable, Sendable {
            var current_password: String?
            var new_password: String
        }
        let answer = try await send("POST", "v1/me/password", json: Body(current_password: current, new_password: new))
        switch answer.status {
        case 200..<300: return
        case 400, 401, 403:
            switch answer.serverError?.code {
            case "weak_password": throw .weakPassword(answer.serverError?.description)
            case "invalid_grant", "invalid_password": throw .incorrectPassword
            default: throw answer.rejection
            }
        default:
            throw answer.rejection
        }
    }

    /// Gives an account that signs in only with passkeys or Sign in with Apple a password too (after a recent
    /// sign-in, which the server asks for).
    public func addPassword(_ password: String) async throws(AccountManagerError) {
        try await changePassword(current: nil, new: password)
    }

    /// Deletes the account on the server (`DELETE /v1/me`, after a recent sign-in) — its sign-in methods, sessions on
    /// every device, the link to the Apple Account (whose tokens the server revokes with Apple) — then removes what it
    /// left on this device (`clearDeviceData()`). `.deviceDataNotCleared` means the account is gone but some of it is
    /// still here: call `clearDeviceData()` again.
    public func deleteAccount() async throws(AccountManagerError) {
        let answer = try await send("DELETE", "v1/me")
        guard (200..<300).contains(answer.status) else { throw answer.rejection }
        try await clearDeviceData()
    }

    /// Removes the tokens and every part of `deviceData`, each even when another fails (what `deleteAccount()` does
    /// once the server deleted the account; also for an account deleted elsewhere).
    public func clearDeviceData() async throws(AccountManagerError) {
        var failures: [String] = []
        do { try await tokens.logout() } catch { failures.append("tokens: \(error.localizedDescription)") }
        failures += await deviceData.clearAll()
        if !failures.isEmpty { throw .deviceDataNotCleared(failures) }
    }

    // MARK: - Sessions

    /// The account's signed-in devices (`GET /v1/sessions`): this one first, then by last use, newest first.
    public func sessions() async throws(AccountManagerError) -> [AccountSession] {
        struct Reply: Decodable { var sessions: [AccountSession] }
        let answer = try await send("GET", "v1/sessions")
        guard answer.status == 200 else { throw answer.rejection }
        return try answer.decode(Reply.self, "sessions").sessions.sorted { a, b in
            if a.isCurrent != b.isCurrent { return a.isCurrent }
            return (a.lastUsedAt ?? a.createdAt) > (b.lastUsedAt ?? b.createdAt)
        }
    }

    /// Signs `session`'s device out (`DELETE /v1/sessions/{id}`): its refresh token stops working at once. Ending this
    /// device's own session signs this app out (its tokens are removed).
    public func endSession(_ session: AccountSession) async throws(AccountManagerError) {
        try await endSession(id: session.id)
        if session.isCurrent { try? await tokens.logout() }
    }

    /// Signs the session `id` out (`DELETE /v1/sessions/{id}`); `.sessionNotFound` when it is not the account's.
    public func endSession(id: String) async throws(AccountManagerError) {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        let answer = try await send("DELETE", "v1/sessions/\(escaped)")
        switch answer.status {
        case 200..<300: return
        case 404: throw .sessionNotFound
        default: throw answer.rejection
        }
    }

    /// Signs every other device out (`POST /v1/sessions/revoke-others`); returns how many sessions ended.
    @discardableResult
    public func endOtherSessions() async throws(AccountManagerError) -> Int {
        struct Reply: Decodable { var ended: Int }
        let answer = try await send("POST", "v1/sessions/revoke-others")
        guard answer.status == 200 else { throw answer.rejection }
        return try answer.decode(Reply.self, "ended sessions").ended
    }

    // MARK: - Requests

    /// Sends a request with the access token. A step-up challenge runs `reauthentication` and sends it once more; a
    /// refused token is refreshed once (a refused refresh: `.notSignedIn`, the tokens removed).
    func send(_ method: String, _ path: String, json: (any Encodable & Sendable)? = nil)
        async throws(AccountManagerError) -> AccountHTTP.Answer {
        var reauthenticated = false
        var refreshed = false
        while true {
            let accessToken = try await currentAccessToken(refresh: false)
            let answer = try await http.send(method, path, json: json, bearer: accessToken)
            if let challenge = StepUpChallenge(status: answer.status, wwwAuthenticate: answer.wwwAuthenticate,
                                               body: answer.body, accessToken: accessToken) {
                guard !reauthenticated else { throw .reauthenticationRequired(maxAge: challenge.maxAge) }
                reauthenticated = true
                try await reauthenticate(challenge)
                continue
            }
            if answer.status == 401 && answer.serverError?.code == "invalid_token" {
                guard !refreshed else {
                    try? await tokens.logout()
                    throw .notSignedIn
                }
                refreshed = true
                _ = try await currentAccessToken(refresh: true)
                continue
            }
            return answer
        }
    }

    private func currentAccessToken(refresh: Bool) async throws(AccountManagerError) -> String {
        do {
            return try await (refresh ? tokens.forceRefresh() : tokens.validTokens()).accessToken
        } catch .loggedOut {
            throw .notSignedIn
        } catch {
            throw .tokens(error)
        }
    }

    private func reauthenticate(_ challenge: StepUpChallenge) async throws(AccountManagerError) {
        let grant: TokenGrant
        do { grant = try await reauthentication(challenge) } catch {
            throw AccountManagerError(reauthentication: error)
        }
        do { try await tokens.store(grant, keepingRefreshToken: true) } catch { throw .tokens(error) }
    }
}
