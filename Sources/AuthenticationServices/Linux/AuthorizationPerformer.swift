#if os(Linux)
import Foundation
import LatchkeySupport
import LatchkeyWebAuthn
import LocalAuthentication

/// Runs a controller's requests off the main actor: the user "picks" the first request that can be fulfilled, is
/// verified through `LAContext`, and the software authenticator or the Apple ID authority answers. Every failure is an
/// `ASAuthorizationError` with Apple's code; cancellation (of the task, or of the prompt) is `.canceled`.
struct AuthorizationPerformer: Sendable {
    enum Mode: Sendable {
        /// The sheet. `existingOnly` (`preferImmediatelyAvailableCredentials`, or the existing-account flow: a password
        /// request among the requests) offers Sign in with Apple only to an app its Apple ID already signed in to.
        case modal(existingOnly: Bool)
        case autoFill
    }

    /// The controller's requests that Linux performs, with their index in `authorizationRequests`.
    let works: [(index: Int, work: AuthorizationWork)]

    func perform(_ mode: Mode) async -> Result<AuthorizationOutcome, ASAuthorizationError> {
        do {
            let outcome = try await run(mode)
            if Task.isCancelled { return .failure(ASAuthorizationError(.canceled, reason: nil)) }
            return .success(outcome)
        } catch {
            return .failure(Task.isCancelled ? ASAuthorizationError(.canceled, reason: nil) : error)
        }
    }

    func run(_ mode: Mode) async throws(ASAuthorizationError) -> AuthorizationOutcome {
        switch mode {
        case .modal(let existingOnly):
            var askedForAppleID = false
            for (index, work) in works {
                switch work {
                case .appleID(let request):
                    guard let authority = LatchkeyAuthenticationServicesConfiguration.appleIDAuthority else {
                        askedForAppleID = !existingOnly
                        continue
                    }
                    if existingOnly, await !Self.hasExistingAppleID(authority) { continue }
                    return AuthorizationOutcome(index: index, result: .appleID(try await authorize(request, with: authority)))
                case .password(let domains):
                    guard let saved = try Self.savedPassword(domains) else { continue }
                    try await Self.evaluate(reason: MessageLanguage.current.pick(
                        english: "Sign in to \(saved.domain) with your saved password",
                        korean: "저장된 암호로 \(saved.domain)에 로그인"), registration: false)
                    return AuthorizationOutcome(index: index, result: .password(saved))
                case .registration(let kind, let options):
                    return AuthorizationOutcome(index: index, result: .registration(kind, try await register(kind, options)))
                case .assertion(let kind, let options):
                    guard try hasCredential(kind, options) else { continue }
                    return AuthorizationOutcome(index: index, result: .assertion(kind, try await assert(kind, options)))
                }
            }
            if askedForAppleID {
                throw ASAuthorizationError(.unknown, reason: LatchkeyAuthenticationServicesConfiguration.noAppleIDReason)
            }
            throw ASAuthorizationError(.canceled, reason: Self.noCredentialsReason)
        case .autoFill:
            let candidates = works.compactMap { index, work -> (Int, PublicKeyCredentialRequestOptions)? in
                if case .assertion(.platform, let options) = work { return (index, options) }
                return nil
            }
            guard !candidates.isEmpty else {
                throw ASAuthorizationError(.notHandled, reason: MessageLanguage.current.pick(
                    english: "AutoFill-assisted requests need a passkey assertion request.",
                    korean: "자동 완성 요청에는 패스키 로그인 요청이 필요합니다."))
            }
            for (index, options) in candidates where try hasCredential(.platform, options) {
                return AuthorizationOutcome(index: index, result: .assertion(.platform, try await assert(.platform, options)))
            }
            // Nothing to offer in the username field: the request waits, as on a device, until it is canceled.
            await Self.waitForCancellation()
            throw ASAuthorizationError(.canceled, reason: nil)
        }
    }

    static var noCredentialsReason: String {
        MessageLanguage.current.pick(english: "No credentials available for login.",
                                     korean: "로그인에 쓸 수 있는 자격 증명이 없습니다.")
    }

    static func waitForCancellation() async {
        let signal = Locked<CheckedContinuation<Void, Never>?>(nil)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = signal.withLock { stored -> Bool in
                    if Task.isCancelled { return true }
                    stored = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            signal.withLock { stored in
                stored?.resume()
                stored = nil
            }
        }
    }

    // MARK: Passkeys

    func store(_ kind: PasskeyAuthenticatorKind) throws(ASAuthorizationError) -> any SoftwareCredentialStore {
        switch kind {
        case .platform:
            return KeychainPasskeyItems()
        case .securityKey:
            guard let key = LatchkeyAuthenticationServicesConfiguration.securityKey else {
                throw ASAuthorizationError(.failed, reason: MessageLanguage.current.pick(
                    english: "No security key is attached (Linux: LatchkeyAuthenticationServicesConfiguration.securityKey).",
                    korean: "연결된 보안 키가 없습니다 (Linux: LatchkeyAuthenticationServicesConfiguration.securityKey)."))
            }
            return key.store
        }
    }

    func hasCredential(_ kind: PasskeyAuthenticatorKind, _ options: PublicKeyCredentialRequestOptions)
        throws(ASAuthorizationError) -> Bool {
        if kind == .securityKey, LatchkeyAuthenticationServicesConfiguration.securityKey == nil { return false }
        let allowed = Set((options.allowCredentials ?? []).map(\.id.data))
        do {
            return try store(kind).credentials(forRelyingParty: options.rpId ?? "").contains {
                allowed.isEmpty || allowed.contains($0.id)
            }
        } catch let error as ASAuthorizationError {
            throw error
        } catch {
            throw Self.failure(error)
        }
    }

    func authenticator(_ kind: PasskeyAuthenticatorKind, userVerified: Bool) throws(ASAuthorizationError)
        -> SoftwareAuthenticator {
        var behaviour = SoftwareAuthenticator.Behaviour()
        behaviour.userVerified = userVerified
        switch kind {
        case .platform:
            // As an Apple platform passkey: no signature counter (always 0).
            behaviour.signCountIncrement = 0
            return SoftwareAuthenticator(store: try store(kind), behaviour: behaviour)
        case .securityKey:
            let key = LatchkeyAuthenticationServicesConfiguration.securityKey
            behaviour.userVerified = userVerified && key?.verifiesUser == true
            return SoftwareAuthenticator(store: try store(kind), aaguid: key?.aaguid ?? Data(count: 16), behaviour: behaviour)
        }
    }

    func register(_ kind: PasskeyAuthenticatorKind, _ options: PublicKeyCredentialCreationOptions)
        async throws(ASAuthorizationError) -> RegistrationResponse {
        let rpID = options.rp.id ?? ""
        return try await withAuthenticator(kind, options.authenticatorSelection?.userVerification, registration: true,
                                           reason: MessageLanguage.current.pick(english: "Save a passkey for \(rpID)",
                                                                                korean: "\(rpID)의 패스키 저장")) {
            try $0.register(options, origin: "https://" + rpID)
        }
    }

    func assert(_ kind: PasskeyAuthenticatorKind, _ options: PublicKeyCredentialRequestOptions)
        async throws(ASAuthorizationError) -> AuthenticationResponse {
        let rpID = options.rpId ?? ""
        return try await withAuthenticator(kind, options.userVerification, registration: false,
                                           reason: MessageLanguage.current.pick(english: "Sign in to \(rpID)",
                                                                                korean: "\(rpID)에 로그인")) {
            try $0.authenticate(options, origin: "https://" + rpID)
        }
    }

    /// Verifies the user as `requirement` asks, then runs `body` with the authenticator of `kind`; the authenticator's
    /// errors become Apple's codes (an excluded credential, no credential, anything else `.failed`).
    func withAuthenticator<T>(_ kind: PasskeyAuthenticatorKind, _ requirement: UserVerificationRequirement?,
                              registration: Bool, reason: String, _ body: (SoftwareAuthenticator) throws -> T)
        async throws(ASAuthorizationError) -> T {
        let verified = try await verifyUser(requirement, registration: registration, reason: reason)
        let passkeys = try authenticator(kind, userVerified: verified)
        do {
            return try body(passkeys)
        } catch WebAuthnError.credentialAlreadyRegistered {
            throw ASAuthorizationError(.matchedExcludedCredential, reason: nil)
        } catch WebAuthnError.unknownCredential {
            throw ASAuthorizationError(.canceled, reason: Self.noCredentialsReason)
        } catch {
            throw Self.failure(error)
        }
    }

    static func failure(_ error: any Error) -> ASAuthorizationError {
        if let keychain = error as? KeychainPasskeyItems.Failure {
            return ASAuthorizationError(.failed, reason: MessageLanguage.current.pick(
                english: "The keychain refused the passkey: \(keychain.message)",
                korean: "키체인이 패스키를 거부했습니다: \(keychain.message)"))
        }
        return ASAuthorizationError(.failed, reason: error.localizedDescription)
    }

    // MARK: User verification

    /// Verifies the device owner unless the request discourages it; returns whether the user was verified.
    func verifyUser(_ requirement: UserVerificationRequirement?, registration: Bool, reason: String)
        async throws(ASAuthorizationError) -> Bool {
        if requirement == .discouraged { return false }
        try await Self.evaluate(reason: reason, registration: registration)
        return true
    }

    static func evaluate(reason: String, registration: Bool) async throws(ASAuthorizationError) {
        let context = LatchkeyAuthenticationServicesConfiguration.makeUserVerificationContext()
        // LAContext is not Sendable (as Apple's); the cancellation handler invalidates the Sendable context it wraps.
        let backing = context.latchkeyAuthenticationContext
        do {
            _ = try await withTaskCancellationHandler {
                try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason)
            } onCancel: {
                backing.invalidate()
            }
        } catch {
            throw Self.mapping(error, registration: registration)
        }
    }

    /// The `ASAuthorizationError` a failed `LAContext` evaluation becomes.
    static func mapping(_ error: any Error, registration: Bool) -> ASAuthorizationError {
        if Task.isCancelled { return ASAuthorizationError(.canceled, reason: nil) }
        guard let failure = error as? LAError else { return ASAuthorizationError(.failed, reason: error.localizedDescription) }
        switch failure.code {
        case .userCancel, .appCancel, .systemCancel, .userFallback, .invalidContext:
            return ASAuthorizationError(.canceled, reason: nil)
        case .notInteractive:
            return ASAuthorizationError(.notInteractive, reason: failure.localizedDescription)
        case .passcodeNotSet where registration:
            return ASAuthorizationError(.deviceNotConfiguredForPasskeyCreation, reason: failure.localizedDescription)
        default:
            return ASAuthorizationError(.failed, reason: failure.localizedDescription)
        }
    }

    // MARK: Saved passwords

    static func savedPassword(_ domains: [String]) throws(ASAuthorizationError) -> SavedPassword? {
        do {
            return try KeychainSavedPasswords().newest(forDomains: domains)
        } catch {
            throw ASAuthorizationError(.failed, reason: MessageLanguage.current.pick(
                english: "The keychain refused the saved passwords: \(error.message)",
                korean: "키체인이 저장된 암호를 거부했습니다: \(error.message)"))
        }
    }

    // MARK: Apple ID

    /// Whether this app's Apple ID already signed in to it (`KeychainAppleIDRecord`) and is still authorized.
    static func hasExistingAppleID(_ authority: any LatchkeyAppleIDAuthority) async -> Bool {
        guard let user = KeychainAppleIDRecord().user() else { return false }
        return (try? await authority.credentialState(forUserID: user)) == .authorized
    }

    func authorize(_ request: LatchkeyAppleIDAuthorizationRequest, with authority: any LatchkeyAppleIDAuthority)
        async throws(ASAuthorizationError) -> LatchkeyAppleIDAuthorization {
        try await Self.evaluate(reason: MessageLanguage.current.pick(english: "Sign in with Apple",
                                                                      korean: "Apple로 로그인"), registration: false)
        do {
            let grant = try await authority.authorize(request)
            KeychainAppleIDRecord().save(user: grant.user)
            return grant
        } catch let error as ASAuthorizationError {
            throw error
        } catch {
            if Task.isCancelled || error is CancellationError { throw ASAuthorizationError(.canceled, reason: nil) }
            throw ASAuthorizationError(.failed, reason: error.localizedDescription)
        }
    }
}
#endif
