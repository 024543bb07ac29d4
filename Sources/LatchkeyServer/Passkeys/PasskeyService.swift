import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// The passkey endpoints: passwordless sign-up, adding passkeys to an account, discoverable sign-in,
/// listing and deleting. Challenges and the pending registrations live in the database, so several
/// server processes can share the work. Sessions are the same as a password login's (`AuthService`).
public final class PasskeyService: Sendable {
    public let auth: AuthService
    public let relyingParty: WebAuthnRelyingParty
    /// The FIDO metadata (MDS3) the service was given: authenticator names in listings, and (through the relying
    /// party's `attestationRootProvider`) attestation roots and the refusal of revoked or compromised models.
    public let metadata: MetadataService?
    var database: any Database { auth.database }

    /// `configuration` names the relying party (ID, name, allowed origins). The database is the auth service's
    /// (already migrated by it). With `metadata`, it becomes the configuration's `attestationRootProvider` unless
    /// that is already set.
    ///
    /// `userVerification` replaces the configuration's: a passkey is the only factor of these accounts
    /// (passwordless sign-up and sign-in), so the endpoints require user verification unless told otherwise
    /// (`latchkey serve --user-verification preferred`), whatever `WebAuthnConfiguration`'s own default is.
    /// A configuration the relying party refuses (`WebAuthnConfiguration.validate()`) is refused here.
    public init(auth: AuthService, configuration: WebAuthnConfiguration, metadata: MetadataService? = nil,
                userVerification: UserVerificationRequirement = .required) throws(WebAuthnConfigurationError) {
        self.auth = auth
        self.metadata = metadata
        var configuration = configuration
        configuration.userVerification = userVerification
        if configuration.attestationRootProvider == nil { configuration.attestationRootProvider = metadata }
        let clock = auth.clock
        relyingParty = try WebAuthnRelyingParty(configuration: configuration,
                                                challenges: DatabaseChallengeStore(database: auth.database, now: { clock.now() }),
                                                now: { clock.now() })
    }

    // MARK: Registration

    /// Creation options. With `authorization` (a Bearer header) the passkey is added to that account, which needs a
    /// recent sign-in of its session (`insufficientUserAuthentication`: adding a sign-in method is a step-up action);
    /// otherwise a new passwordless account named `username` will be created at verification.
    public func registrationOptions(username: String?, authorization: String?) async throws(PasskeyEndpointError)
        -> PublicKeyCredentialCreationOptions {
        let now = auth.clock.seconds
        do {
            let user: UserEntity
            var exclude: [StoredCredential] = []
            if let authorization {
                let account = try bearerAccount(authorization, recentlyAuthenticated: true)
                user = UserEntity(id: try database.webAuthnUserHandle(accountID: account.id), name: account.username,
                                  displayName: account.username)
                exclude = try database.passkeys(accountID: account.id).map(\.credential)
            } else {
                guard let username, Username.isValid(username) else { throw PasskeyEndpointError.invalidUsername }
                if try database.account(usernameKey: Username.key(username)) != nil { throw PasskeyEndpointError.usernameTaken }
                let handle = WebAuthnRelyingParty.makeUserHandle()
                try database.insertPendingPasskeyAccount(
                    userHandle: handle, username: username,
                    expiresAt: now + Int64(relyingParty.configuration.challengeLifetime), now: now)
                user = UserEntity(id: handle, name: username, displayName: username)
            }
            return try await relyingParty.registrationOptions(user: user, excludeCredentials: exclude)
        } catch {
            throw .storage(error)
        }
    }

    /// What a successful registration returns; `tokens` when a new account was created.
    public struct Registration: Sendable {
        public var passkeyID: String
        public var createdAt: Date
        public var tokens: TokenResponse?
    }

    /// Verifies a registration response (same `authorization` as the options call, whose recent sign-in it relies on:
    /// the ceremony may take its time) and stores the passkey. A new account's session is described by `context`
    /// (device name, address).
    public func verifyRegistration(_ response: RegistrationResponse, authorization: String?, ip: String? = nil,
                                   context: SignInContext = SignInContext()) async throws(PasskeyEndpointError) -> Registration {
        do {
            let bearer = try authorization.map { header throws(PasskeyEndpointError) in try bearerAccount(header) }
            let db = database
            let credential: StoredCredential
            do {
                credential = try await relyingParty.verifyRegistration(response, isRegistered: { try db.passkey(id: $0) != nil })
            } catch let error as WebAuthnError {
                throw PasskeyEndpointError.invalidRequest(error.englishText)
            } catch let error as MetadataError {
                throw PasskeyEndpointError.authenticatorRefused(error.localizedDescription)
            }
            let now = auth.clock.seconds
            let name = metadata?.authenticatorName(aaguid: credential.aaguid).map(PasskeyName.truncated) ?? "Passkey"
            let passkeyID = credential.id.base64URLEncodedString()
            if let bearer {
                guard try database.accountID(userHandle: credential.userHandle) == bearer.id else {
                    throw PasskeyEndpointError.invalidRequest("The registration was not started for this account.")
                }
                try database.insertPasskey(credential, accountID: bearer.id, name: name)
                try? database.appendAudit(AuditEvent(at: now, accountID: bearer.id, event: "passkey_registered", ip: ip,
                                                     detail: passkeyID))
                return Registration(passkeyID: passkeyID, createdAt: credential.createdAt, tokens: nil)
            }
            guard let username = try database.consumePendingPasskeyAccount(userHandle: credential.userHandle, now: now) else {
                throw PasskeyEndpointError.invalidRequest("The registration was not started for a new account.")
            }
            let key = Username.key(username)
            if try database.account(usernameKey: key) != nil { throw PasskeyEndpointError.usernameTaken }
            // No password: "!" is no PHC string, so no password ever verifies against it.
            let account = AccountRecord(id: UUID().uuidString.lowercased(), username: username, usernameKey: key,
                                        passwordHash: AccountRecord.noPassword, createdAt: now)
            do {
                try database.insertPasskeyAccount(account, passkey: credential, name: name)
            } catch DatabaseError.uniqueViolation {
                throw PasskeyEndpointError.usernameTaken
            }
            try? database.appendAudit(AuditEvent(at: now, accountID: account.id, event: "account_created", ip: ip,
                                                 detail: "passkey"))
            try? database.appendAudit(AuditEvent(at: now, accountID: account.id, event: "passkey_registered", ip: ip,
                                                 detail: passkeyID))
            var context = context
            context.clientAddress = context.clientAddress ?? ip
            context.reauthenticating = nil
            let tokens = try auth.signIn(accountID: account.id,
                                         proof: .passkey(backupEligible: credential.backupEligible,
                                                         userVerified: credential.userVerifiedAtRegistration),
                                         context: context, now: now)
            return Registration(passkeyID: passkeyID, createdAt: credential.createdAt, tokens: tokens)
        } catch {
            throw .storage(error)
        }
    }

    // MARK: Sign-in

    /// Request options for a discoverable sign-in (no allowCredentials).
    public func authenticationOptions() async throws(PasskeyEndpointError) -> PublicKeyCredentialRequestOptions {
        do { return try await relyingParty.authenticationOptions() } catch { throw .storage(error) }
    }

    /// Verifies an assertion and starts a session — or, when `context.reauthenticating` holds a step-up's Bearer claims
    /// (`AuthService.stepUpClaims`), re-authenticates that session (`accountMismatch` when the passkey is another
    /// account's). Every WebAuthn failure is `invalidGrant` and audited (`passkey_login_failed` with the failed check;
    /// a counter rollback also as `passkey_sign_count_rollback`). The access token's `amr` says `hwk` or `swk` by the
    /// credential's backup eligibility, `user`, and `mfa` when the assertion was user-verified (`SignInProof`).
    public func signIn(_ response: AuthenticationResponse, ip: String? = nil,
                       context: SignInContext = SignInContext()) async throws(PasskeyEndpointError) -> TokenResponse {
        let db = database
        do {
            let result: WebAuthnRelyingParty.AuthenticationResult
            let owner = try? db.passkey(id: response.rawId.data)
            do {
                result = try await relyingParty.verifyAuthentication(response, lookup: { try db.passkey(id: $0)?.credential })
            } catch let error as WebAuthnError {
                let now = auth.clock.seconds
                try? db.appendAudit(AuditEvent(at: now, accountID: owner?.accountID, event: "passkey_login_failed", ip: ip,
                                               detail: error.checkName))
                if case .signCountRollback(let stored, let received) = error {
                    try? db.appendAudit(AuditEvent(at: now, accountID: owner?.accountID, event: "passkey_sign_count_rollback",
                                                   ip: ip, detail: "\(response.id) stored \(stored) received \(received)"))
                }
                throw PasskeyEndpointError.invalidGrant(error.englishText)
            }
            guard let owner else { throw PasskeyEndpointError.invalidGrant("Unknown credential.") }
            let now = auth.clock.seconds
            guard try db.updatePasskeyAfterUse(result.credential, previousSignCount: owner.credential.signCount) else {
                try? db.appendAudit(AuditEvent(at: now, accountID: owner.accountID, event: "passkey_login_failed", ip: ip,
                                               detail: "concurrentUse"))
                throw PasskeyEndpointError.invalidGrant("The passkey was used concurrently.")
            }
            var context = context
            context.clientAddress = context.clientAddress ?? ip
            return try auth.signIn(accountID: owner.accountID,
                                   proof: .passkey(backupEligible: result.credential.backupEligible,
                                                   userVerified: result.userVerified),
                                   context: context, now: now,
                                   audit: AuditEvent(at: now, accountID: owner.accountID, event: "passkey_login", ip: ip,
                                                     detail: response.id))
        } catch {
            throw .storage(error)
        }
    }

    // MARK: Management

    /// The passkeys of the Bearer token's account.
    public func list(authorization: String?) throws(PasskeyEndpointError) -> [PasskeyRecord] {
        do {
            let account = try bearerAccount(authorization)
            return try database.passkeys(accountID: account.id)
        } catch {
            throw .storage(error)
        }
    }

    /// Renames one of the Bearer token's account's passkeys (`invalidPasskeyName` when `name` is not
    /// acceptable, see `PasskeyName`; `notFound` when it is not the caller's). Returns the stored name.
    @discardableResult
    public func rename(id: String, to name: String, authorization: String?, ip: String? = nil)
        throws(PasskeyEndpointError) -> String {
        do {
            let account = try bearerAccount(authorization)
            let stored: String
            do { stored = try PasskeyName.validated(name) } catch { throw PasskeyEndpointError.invalidPasskeyName(error) }
            guard try database.renamePasskey(id: id, accountID: account.id, name: stored) else {
                throw PasskeyEndpointError.notFound
            }
            try? database.appendAudit(AuditEvent(at: auth.clock.seconds, accountID: account.id, event: "passkey_renamed",
                                                 ip: ip, detail: id))
            return stored
        } catch {
            throw .storage(error)
        }
    }

    /// The authenticator's name for a listing: from the metadata when loaded, else the AAGUID (nil when the
    /// AAGUID is all zero, as with `none` attestation from most browsers).
    public func authenticatorName(aaguid: Data) -> String? {
        if let name = metadata?.authenticatorName(aaguid: aaguid) { return name }
        return aaguid.contains(where: { $0 != 0 }) ? MetadataService.text(aaguid) : nil
    }

    /// Deletes one of the Bearer token's account's passkeys (`notFound` when it is not the caller's).
    public func delete(id: String, authorization: String?, ip: String? = nil) throws(PasskeyEndpointError) {
        do {
            let account = try bearerAccount(authorization)
            guard try database.deletePasskey(id: id, accountID: account.id) else { throw PasskeyEndpointError.notFound }
            try? database.appendAudit(AuditEvent(at: auth.clock.seconds, accountID: account.id, event: "passkey_deleted",
                                                 ip: ip, detail: id))
        } catch {
            throw .storage(error)
        }
    }

    /// The account of a Bearer token whose session is live (and, with `recentlyAuthenticated`, whose `auth_time` is
    /// recent: `insufficientUserAuthentication` otherwise).
    func bearerAccount(_ authorization: String?, recentlyAuthenticated: Bool = false) throws(PasskeyEndpointError) -> AccountRecord {
        let claims: AccessTokenClaims
        do {
            claims = recentlyAuthenticated ? try auth.authenticateRecently(authorization) : try auth.authenticate(authorization)
        } catch {
            throw .from(error)
        }
        do {
            guard let account = try database.account(id: claims.sub) else { throw PasskeyEndpointError.invalidToken }
            return account
        } catch {
            throw .storage(error)
        }
    }
}

extension WebAuthnError {
    /// The failed check's name, for the audit log ("signatureInvalid", "signCountRollback"...).
    var checkName: String { String(String(describing: self).prefix { $0 != "(" }) }

    /// The text sent to clients as `error_description` (the process language's).
    var englishText: String { localizedDescription }
}
