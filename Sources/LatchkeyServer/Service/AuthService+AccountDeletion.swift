import Foundation

extension AuthService {
    /// Deletes the Bearer token's account and everything that hangs on it (`Database.deleteAccount`); the token's
    /// `auth_time` must be recent (`insufficientUserAuthentication`). A token whose session is gone — a repeated
    /// deletion included — is `invalidToken`. Apple refresh tokens are queued for revocation and the deletion
    /// observers are told after the commit (Sign in with Apple's outbox sends them then).
    @discardableResult
    public func deleteAccount(authorization: String?) throws(AccountEndpointError) -> AccountDeletion {
        do {
            let claims = try authenticateRecently(authorization)
            guard let deletion = try deleteAccount(id: claims.sub) else { throw AccountEndpointError.invalidToken }
            return deletion
        } catch {
            throw .from(error)
        }
    }

    /// Deletes account `id` (an administrator, or Apple's `account-delete` for an account nothing else signs in to)
    /// and tells the deletion observers. Nil when there is no such account.
    @discardableResult
    public func deleteAccount(id: String, revokeAppleTokens: Bool = true) throws -> AccountDeletion? {
        guard let deletion = try database.deleteAccount(id: id, now: clock.seconds, revokeAppleTokens: revokeAppleTokens)
        else { return nil }
        accountDeleted(deletion)
        return deletion
    }

    /// Calls `observer` after every account deletion this service commits (on the deleting thread; keep it short).
    public func onAccountDeletion(_ observer: @escaping @Sendable (AccountDeletion) -> Void) {
        deletionObservers.withLock { $0.append(observer) }
    }

    /// Tells the observers about a committed deletion.
    func accountDeleted(_ deletion: AccountDeletion) {
        for observer in deletionObservers.withLock({ $0 }) { observer(deletion) }
    }
}
