import Foundation

extension AuthService {
    /// Changes the password of the Bearer token's account — or adds one to an account without (passkey or Sign in
    /// with Apple only) — and ends every other session of it.
    ///
    /// With `currentPassword`, that password must verify; it is throttled as a login is, on the same per-name counter
    /// (a guesser gets no more tries by switching endpoints): `slowDown` while blocked, `wrongPassword` (counted) when
    /// it does not verify. Without it, the token's `auth_time` must be recent (`insufficientUserAuthentication`).
    /// `newPassword` follows the policy of account creation (`weakPassword`), checked first.
    public func changePassword(authorization: String?, currentPassword: String?, newPassword: String,
                               ip: String? = nil) async throws(AccountEndpointError) {
        do {
            let claims = try authenticate(authorization)
            guard let account = try database.account(id: claims.sub) else { throw AccountEndpointError.invalidToken }
            if let violation = configuration.passwordPolicy.violation(password: newPassword, username: account.username) {
                throw AccountEndpointError.weakPassword(violation)
            }
            if let currentPassword {
                try await verifyCurrentPassword(currentPassword, of: account, ip: ip)
            } else {
                try requireRecentAuthentication(claims)
            }
            let hash = try await hasher.hash(newPassword)
            let now = clock.seconds
            let audit = AuditEvent(at: now, accountID: account.id, event: account.hasPassword ? "password_changed" : "password_added",
                                   ip: ip, detail: currentPassword == nil ? "step-up" : "current password")
            guard try database.changePassword(accountID: account.id, passwordHash: hash, keepingSession: claims.sid, now: now,
                                              audit: audit) != nil else { throw AccountEndpointError.invalidToken }
        } catch {
            throw .from(error)
        }
    }

    /// Checks a password change's current password as a login checks a password (same throttle, same work).
    private func verifyCurrentPassword(_ password: String, of account: AccountRecord, ip: String?) async throws {
        guard !password.isEmpty, password.unicodeScalars.count <= configuration.passwordPolicy.maximumBytes else {
            throw AccountEndpointError.invalidRequest("current_password is empty or too long.")
        }
        let now = clock.seconds
        let userKey = "user:" + account.usernameKey
        let ipKey = "ip:" + (ip ?? "unknown")
        let blocked = max(try database.throttleState(key: userKey)?.blockedUntil ?? 0,
                          try database.throttleState(key: ipKey)?.blockedUntil ?? 0)
        if blocked > now { throw AccountEndpointError.slowDown(retryAfter: blocked - now) }
        // An account without a password is verified against the dummy hash: the same work, and never a match.
        let phc = account.hasPassword ? account.passwordHash : await dummyHash()
        guard await hasher.verify(password, against: phc), account.hasPassword else {
            try recordFailure(account: account, userKey: userKey, ipKey: ipKey, ip: ip ?? "unknown", now: clock.seconds)
            throw AccountEndpointError.wrongPassword
        }
        try database.clearThrottle(key: userKey)
    }
}
