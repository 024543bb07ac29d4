import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeySupport
import LatchkeyWebAuthn
import Latchkey

/// The README's usage examples, compiled and run, so the documentation stays true.
@Suite(.offCooperativePool) struct ReadmeExamplesTests {
    @Test func cryptoExample() throws {
        let key = SymmetricKey(size: .bits256)
        let box = try AES.GCM.seal(Data("secret".utf8), using: key, authenticating: Data("note-1".utf8))
        let plain = try AES.GCM.open(box, using: key, authenticating: Data("note-1".utf8))
        #expect(plain == Data("secret".utf8))

        let digest = SHA256.hash(data: Data("abc".utf8))            // SHA256.Digest: bytes inline, == in constant time
        let bytes = Data(digest)                                    // as CryptoKit: Data(digest), digest.hexString
        #expect(bytes.count == 32 && digest.hexString.hasPrefix("ba7816bf"))

        let verifier = try PasswordHash.make(password: "correct horse")   // $argon2id$… on Linux, $pbkdf2-sha256$… on Apple
        #expect(try PasswordHash.verify(password: "correct horse", against: verifier))

        let signingKey = P256.Signing.PrivateKey()
        let token = try JWT.sign(claims: JWTClaims(sub: "alice"), header: JWSHeader(alg: .ES256), key: .p256(signingKey))
        let jwt = try JWT.verify(token, key: .p256(signingKey.publicKey),
                                 options: JWTValidationOptions(allowedAlgorithms: [.ES256], requireExpiration: false))
        #expect(jwt.claims.sub == "alice")

        let recipientKey = Curve25519.KeyAgreement.PrivateKey()
        var sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: .Curve25519_SHA256_ChachaPoly,
                                     info: Data("notes v1".utf8))
        let sealed = try sender.seal(Data("hello".utf8), authenticating: Data("header".utf8))
        var recipient = try HPKE.Recipient(privateKey: recipientKey, ciphersuite: .Curve25519_SHA256_ChachaPoly,
                                           info: Data("notes v1".utf8), encapsulatedKey: sender.encapsulatedKey)
        let opened = try recipient.open(sealed, authenticating: Data("header".utf8))
        #expect(opened == Data("hello".utf8))
        #expect(digest.description == "SHA256 digest: " + digest.hexString)
    }

    @Test func keychainExample() throws {
        let keychain = Keychain(service: "com.example.notes", store: MemoryStore())
        try keychain.set("s3cr3t", forKey: "api-token")
        #expect(try keychain.string(forKey: "api-token") == "s3cr3t")
        try keychain.accessibility(.afterFirstUnlockThisDeviceOnly).set(Data([1, 2, 3]), forKey: "blob")
        keychain["greeting"] = "안녕하세요"
        #expect(keychain["greeting"] == "안녕하세요")
        #expect(try keychain.allKeys().sorted() == ["api-token", "blob", "greeting"])
        try keychain.remove("api-token")
        #expect(try !keychain.contains("api-token"))
    }

    @Test func authenticationExample() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let simulator = SimulatedAuthenticator(stateURL: dir.appendingPathComponent("sensor.json"))
        try simulator.setPasscode(Passcode("1234"))   // as on iOS, biometry needs a passcode
        try simulator.enroll()
        try simulator.enqueue(.match)
        let authenticator = BiometricAuthenticator { simulator.makeContext() }
        switch await authenticator.authenticate(reason: "Unlock your notes") {
        case .success: break
        case .failure(let error): Issue.record("unexpected \(error)")
        }
        try simulator.enqueue(.noMatch)
        if case .failure(let error) = await authenticator.authenticate(reason: "Unlock your notes") {
            #expect(error == .failed)
        } else {
            Issue.record("a non-matching scan must fail")
        }
    }

    /// The Screens example's models, wired as the README wires them (a `String` stands for `ASAuthorization`), driven
    /// with the calls its SwiftUI makes: `.task`, the `presentation` switch, `SignInWithAppleButton`'s two closures,
    /// `.privacyCover`'s scene phases, the lock screen's button and the password sheet's binding.
    @MainActor @Test func screensExample() async throws {
        let phone = try SimulatedPhone(biometry: .faceID)
        defer { phone.cleanUp() }
        let keychain = Keychain(service: "com.example.notes", store: MemoryStore())
        let tokens = Locked(false)
        var kept: [TokenGrant] = []
        func keep(_ grant: TokenGrant) { kept.append(grant) }
        let server = URL(string: "http://127.0.0.1:9")!   // the passkey button is not pressed here
        let passkeyCeremony = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        func appleSession(_ authorization: String, rawNonce: String) async throws -> TokenGrant {
            TokenGrant(accessToken: "\(authorization):\(rawNonce)", expiresIn: 900, refreshToken: "r")
        }

        let authenticator = phone.authenticator()
        let lockScreen = LockScreenModel(
            appLock: AppLock(authenticator: authenticator, hasValidTokens: { tokens.withLock { $0 } }),
            allowsPasswordLogin: true)
        let passwordForm = PasswordLoginFormModel(login: PasswordLogin(keychain: keychain, hashStrength: .testing),
                                                  authenticator: authenticator) { _ in
            lockScreen.didLogInWithPassword()
        }
        let signIn = SignInScreenModel<TokenGrant, String>(
            passkeyClient: PasskeyClient(baseURL: server, ceremony: passkeyCeremony),
            exchangeApple: { authorization, nonce in try await appleSession(authorization, rawNonce: nonce.raw) },
            onSignIn: { grant, _ in
                keep(grant)
                lockScreen.appLock.didAuthenticate()
            })

        // .task: no tokens yet → the sign-in screen.
        await lockScreen.launch()
        #expect(lockScreen.presentation == .login)
        // SignInWithAppleButton: onRequest, then onCompletion.
        let nonce = try #require(signIn.startAppleSignIn())
        #expect(!nonce.hashed.isEmpty && signIn.isInFlight(.apple) && !signIn.isEnabled(.passkey))
        await signIn.finishAppleSignIn(.success("apple-user"))
        #expect(kept.map(\.accessToken) == ["apple-user:\(nonce.raw)"])
        #expect(lockScreen.presentation == .content)
        tokens.withLock { $0 = true }

        // .privacyCover: the app switcher covers, coming back within the timeout uncovers.
        lockScreen.scenePhaseChanged(to: .inactive)
        lockScreen.scenePhaseChanged(to: .background)
        #expect(lockScreen.isPrivacyCoverShown && lockScreen.presentation == .content)
        await lockScreen.scenePhaseChanged(to: .active)?.value
        #expect(!lockScreen.isPrivacyCoverShown && lockScreen.presentation == .content)

        // Locked: the lock screen's button, then the password sheet.
        lockScreen.appLock.lock()
        #expect(lockScreen.presentation == .lockScreen)
        #expect(lockScreen.primaryButton?.title == BiometryType.faceID.unlockTitle(in: lockScreen.language))
        try phone.next(.cancel)
        await lockScreen.performPrimaryAction()
        #expect(lockScreen.appLock.state == .locked && lockScreen.showsPasswordLogin)
        lockScreen.logInWithPassword()
        #expect(lockScreen.isPasswordLoginPresented)
        passwordForm.username = "mina"
        (passwordForm.password, passwordForm.passwordConfirmation) = ("s3cret-pass", "s3cret-pass")
        await passwordForm.submit()
        #expect(lockScreen.presentation == .content && !lockScreen.isPasswordLoginPresented)
    }
}

extension ASAuthorizationTests {
    /// The README's ASAuthorization example, against a real `latchkey serve` and `latchkey apple-stand-in` (in the
    /// serialized ASAuthorization suite: it uses the module's process-wide configuration).
    @Suite("README") struct Readme {
        @MainActor @Test func asAuthorizationExample() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let api = services.server.baseURL
            let keychain = Keychain(service: "com.example.notes.readme", store: MemoryStore())
            let signOut: @Sendable () async -> Void = {}

            let passkeys = PasskeyClient(baseURL: api, ceremony: PlatformPasskeyCeremony())
            let account = try await passkeys.register(username: "ada")   // a new account with a passkey (account.tokens)
            let session = try await passkeys.signIn()                     // or signIn(autoFill: true) from the username field
            #expect(account.tokens != nil && !session.accessToken.isEmpty)

            let apple = AppleSignIn(keychain: keychain, stateProvider: SystemAppleCredentialStateProvider()) { await signOut() }
            let result = try await apple.signIn(with: SystemAppleIDAuthorizer(), server: AppleSessionClient(baseURL: api))
            #expect(await apple.checkCredentialState() == .authorized)
            let revocations = apple.observeCredentialRevocation()
            revocations.cancel()
            #expect(!result.tokens.accessToken.isEmpty && result.authorization.email != nil)

            // The existing-account flow: the Apple ID just used is offered (this stand-in knows it), the sheet picks it.
            let existing = ExistingAccountSignIn(baseURL: api, appleSignIn: apple)   // the system's sheet
            if let signedIn = try await existing.signIn() {        // nil: nothing to offer, or the sheet was closed
                #expect(signedIn.method == .apple && !signedIn.tokens.accessToken.isEmpty)
            } else {
                Issue.record("the Apple ID was not offered")
            }
        }

        /// The README's account example: a passkey account whose sign-in the server's clock makes too old for a step-up.
        @MainActor @Test func accountExample() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let server = services.server.baseURL
            let store = MemoryStore()
            let notesKeychain = Keychain(service: "com.example.notes.readme.notes", store: store)
            try await notesKeychain.set("4711", forKey: "note")
            let tokens = TokenManager(storage: KeychainTokenStorage(service: "com.example.notes.readme", store: store),
                                      refresher: OAuthTokenRefresher(tokenEndpoint: server.appendingPathComponent("v1/token")))
            let username = "ada-\(UUID().uuidString.prefix(8).lowercased())"
            let passkeys = PasskeyClient(baseURL: server, ceremony: PlatformPasskeyCeremony(), deviceName: "Ada's iPhone")
            try await tokens.store(try #require(try await passkeys.register(username: username).tokens))
            _ = try await passkeys.signIn()                                          // another device's session
            let appLock = AppLock(authenticator: BiometricAuthenticator { AuthenticationServicesFixture.simulator.makeContext() })
            let lockSessions = MemoryAppSessionStore(Date())
            let trustedBiometrics = MemoryDomainStateStore(TrustedDomainState(domainState: Data([1])))
            let apple = AppleSignIn(keychain: Keychain(service: "com.example.notes.readme", store: store),
                                    stateProvider: SystemAppleCredentialStateProvider()) {}

            let account = Latchkey.AccountManager(
                baseURL: server, tokens: tokens,
                reauthentication: .passkey(PasskeyClient(baseURL: server, ceremony: PlatformPasskeyCeremony())),
                deviceData: AccountDeviceData(keychains: [notesKeychain], appleSignIn: apple, domainState: trustedBiometrics,
                                              appSessions: lockSessions, appLock: appLock))
            let sessions = try await account.sessions()
            #expect(sessions.count == 2 && sessions.first?.isCurrent == true)
            #expect(sessions.first?.deviceName == "Ada's iPhone")
            #expect(try await account.endOtherSessions() == 1)
            try services.passStepUpMaxAge()                                          // the sign-in is no longer recent
            try await account.addPassword("a new password")
            try await account.deleteAccount()

            #expect(try await tokens.storedTokens() == nil)
            #expect(try await notesKeychain.allKeys().isEmpty)
            #expect(lockSessions.lastActive() == nil)
            #expect(try trustedBiometrics.loadTrustedState() == nil)
            #expect(appLock.state == .needsLogin)
        }
    }
}
