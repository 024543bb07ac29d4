import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// A WebAuthn Level 3 relying party: makes ceremony options and verifies every byte of what
/// comes back (§7.1 registration, §7.2 authentication). Usable without the HTTP server.
///
/// Challenges either live in the `ChallengeStore` (the methods without a challenge argument: issued by the options
/// calls, consumed by the verify calls, single-use with `challengeLifetime`), or the integrator keeps them itself,
/// e.g. in its session: `makeChallenge()`, the options methods taking `challenge:` and the verify methods taking
/// `expectedChallenge:`. Then single use and expiry are the integrator's to enforce; the store is never touched.
public struct WebAuthnRelyingParty: Sendable {
    public let configuration: WebAuthnConfiguration
    let challenges: any ChallengeStore
    let now: @Sendable () -> Date
    /// Verification keys of recently registered or used credentials (shared by copies of this relying party).
    let credentialKeys: CredentialKeyCache
    /// SHA-256 of the RP ID and of each related RP ID, which authenticator data must start with (hashed once here).
    let relyingPartyIDHashes: [String: SHA256.Digest]

    /// A relying party for `configuration`, refused when the configuration cannot do what it says
    /// (`WebAuthnConfiguration.validate()`); its `configurationWarnings` are logged once here (`LatchkeyLog`, category
    /// `webauthn`, level warning).
    public init(configuration: WebAuthnConfiguration, challenges: any ChallengeStore = InMemoryChallengeStore(),
                now: @escaping @Sendable () -> Date = Date.init) throws(WebAuthnConfigurationError) {
        try configuration.validate()
        for warning in configuration.configurationWarnings { LatchkeyLog.log(.warning, category: "webauthn", warning) }
        self.configuration = configuration
        self.challenges = challenges
        self.now = now
        credentialKeys = CredentialKeyCache(capacity: configuration.credentialKeyCacheCapacity)
        var hashes: [String: SHA256.Digest] = [:]
        for id in [configuration.relyingPartyID] + configuration.relatedRelyingParties.map(\.id) {
            hashes[id] = SHA256.hash(data: Data(id.utf8))
        }
        relyingPartyIDHashes = hashes
    }

    /// SHA-256 of the RP ID, which authenticator data must start with.
    public var relyingPartyIDHash: Data { Data(SHA256.hash(data: Data(configuration.relyingPartyID.utf8))) }

    /// A new random user handle (64 bytes, never derived from the username).
    public static func makeUserHandle() -> Data { SecureRandom.bytes(count: 64) }

    /// A new random challenge (32 bytes), for integrators that keep challenges themselves.
    public static func makeChallenge() -> Data { SecureRandom.bytes(count: 32) }

    // MARK: Options

    /// Options for `navigator.credentials.create()`, with a fresh single-use 32-byte challenge from the store.
    /// `relyingPartyID` names one of the `relatedRelyingParties` instead of the main RP ID.
    public func registrationOptions(user: UserEntity, excludeCredentials: [StoredCredential] = [],
                                    relyingPartyID: String? = nil) async throws -> PublicKeyCredentialCreationOptions {
        let challenge = try await issueChallenge(.registration, userHandle: user.id.data)
        return registrationOptions(user: user, challenge: challenge, excludeCredentials: excludeCredentials,
                                   relyingPartyID: relyingPartyID)
    }

    /// Options for `navigator.credentials.create()` with a challenge the caller keeps (see `makeChallenge()`);
    /// verify the answer with `verifyRegistration(_:expectedChallenge:userHandle:isRegistered:)`.
    public func registrationOptions(user: UserEntity, challenge: Data, excludeCredentials: [StoredCredential] = [],
                                    relyingPartyID: String? = nil) -> PublicKeyCredentialCreationOptions {
        PublicKeyCredentialCreationOptions(
            rp: RelyingPartyEntity(id: relyingPartyID ?? configuration.relyingPartyID, name: configuration.relyingPartyName),
            user: user, challenge: challenge,
            pubKeyCredParams: credentialParameters,
            timeout: configuration.timeoutMilliseconds,
            excludeCredentials: excludeCredentials.map { PublicKeyCredentialDescriptor(id: $0.id, transports: $0.transports) },
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: configuration.residentKey,
                                                                   userVerification: configuration.userVerification),
            attestation: configuration.attestation,
            extensions: ["credProps": true])
    }

    /// `pubKeyCredParams`: the supported algorithms in order, then RS1 when `allowRS1CredentialKeys` (least preferred).
    var credentialParameters: [PublicKeyCredentialParameters] {
        var parameters = configuration.supportedAlgorithms.compactMap {
            COSEAlgorithmIdentifier(rawValue: $0.rawValue).map(PublicKeyCredentialParameters.init(alg:))
        }
        if configuration.allowRS1CredentialKeys {
            var rs1 = PublicKeyCredentialParameters(alg: .rs256)
            rs1.alg = CredentialPublicKey.rs1Algorithm
            parameters.append(rs1)
        }
        return parameters
    }

    /// Options for `navigator.credentials.get()`. With no credentials listed the browser offers
    /// discoverable passkeys (also the conditional-UI / autofill request).
    public func authenticationOptions(allowCredentials: [StoredCredential] = [], relyingPartyID: String? = nil)
        async throws -> PublicKeyCredentialRequestOptions {
        let challenge = try await issueChallenge(.authentication, userHandle: nil)
        return authenticationOptions(challenge: challenge, allowCredentials: allowCredentials, relyingPartyID: relyingPartyID)
    }

    /// Options for `navigator.credentials.get()` with a challenge the caller keeps; verify the answer with
    /// `verifyAuthentication(_:expectedChallenge:credential:userIdentified:)`.
    public func authenticationOptions(challenge: Data, allowCredentials: [StoredCredential] = [],
                                      relyingPartyID: String? = nil) -> PublicKeyCredentialRequestOptions {
        PublicKeyCredentialRequestOptions(
            challenge: challenge, timeout: configuration.timeoutMilliseconds,
            rpId: relyingPartyID ?? configuration.relyingPartyID,
            allowCredentials: allowCredentials.map { PublicKeyCredentialDescriptor(id: $0.id, transports: $0.transports) },
            userVerification: configuration.userVerification)
    }

    func issueChallenge(_ ceremony: IssuedChallenge.Ceremony, userHandle: Data?) async throws -> Data {
        let challenge = Self.makeChallenge()
        try await challenges.insert(IssuedChallenge(challenge: challenge, ceremony: ceremony, userHandle: userHandle,
                                                    expiresAt: now().addingTimeInterval(configuration.challengeLifetime)))
        return challenge
    }

    /// Where the challenge a response must carry comes from.
    enum ExpectedChallenge: Sendable {
        /// Issued by this relying party into its `ChallengeStore` (consumed on use).
        case issued
        /// Kept by the caller; `userHandle` is the registering user's.
        case given(Data, userHandle: Data?)
    }

    // MARK: Registration (§7.1)

    /// Verifies a registration response whose challenge came from the store and returns the credential record
    /// to store. `isRegistered` tells whether a credential id is already known (step 26).
    public func verifyRegistration(_ response: RegistrationResponse,
                                   isRegistered: @Sendable (Data) async throws -> Bool = { _ in false })
        async throws -> StoredCredential {
        try await register(response, challenge: .issued, isRegistered: isRegistered)
    }

    /// Verifies a registration response against a challenge the caller kept (from
    /// `registrationOptions(user:challenge:)`) for the user with `userHandle`. The store is not consulted: the
    /// caller makes sure the challenge is used once and is recent.
    public func verifyRegistration(_ response: RegistrationResponse, expectedChallenge: Data, userHandle: Data,
                                   isRegistered: @Sendable (Data) async throws -> Bool = { _ in false })
        async throws -> StoredCredential {
        let credential = try verifiedRegistration(response, expectedChallenge: expectedChallenge, userHandle: userHandle)
        guard try await !isRegistered(credential.id) else { throw WebAuthnError.credentialAlreadyRegistered }
        return credential
    }

    /// Every check of `verifyRegistration(_:expectedChallenge:userHandle:isRegistered:)` but whether the credential id
    /// is already known, synchronously: a caller-kept challenge needs nothing to wait for (the benchmarks call this).
    package func verifiedRegistration(_ response: RegistrationResponse, expectedChallenge: Data,
                                      userHandle: Data) throws -> StoredCredential {
        let client = try Self.registrationClientData(response)
        let checked = try checkClientData(client, ceremony: .registration, expectedChallenge: expectedChallenge,
                                          userHandle: userHandle)
        return try verifyAttestation(response, checked: checked)
    }

    func register(_ response: RegistrationResponse, challenge expected: ExpectedChallenge,
                  isRegistered: @Sendable (Data) async throws -> Bool) async throws -> StoredCredential {
        let client = try Self.registrationClientData(response)
        let checked = try await checkClientData(client, ceremony: .registration, challenge: expected)
        let credential = try verifyAttestation(response, checked: checked)
        guard try await !isRegistered(credential.id) else { throw WebAuthnError.credentialAlreadyRegistered }
        return credential
    }

    /// The response's type and id, and its client data parsed.
    static func registrationClientData(_ response: RegistrationResponse) throws -> CollectedClientData {
        guard response.type == "public-key" else { throw WebAuthnError.malformedResponse("type \(response.type)") }
        guard response.id == response.rawId.base64URL else { throw WebAuthnError.credentialIDMismatch }
        return try CollectedClientData.parse(response.response.clientDataJSON.data)
    }

    /// §7.1 from the attestation object on, once the client data is checked: the credential record to store.
    func verifyAttestation(_ response: RegistrationResponse, checked: CheckedClientData) throws -> StoredCredential {
        let clientDataJSON = response.response.clientDataJSON.data
        let attestation = try AttestationObject(response.response.attestationObject.data,
                                                strictness: configuration.cborStrictness)
        let authData = attestation.authenticatorData
        let rpID = try checkAuthenticatorData(authData, acceptedRelyingPartyIDs: checked.relyingPartyIDs,
                                              allowMissingUP: configuration.allowConditionalRegistration)
        guard let attested = authData.attestedCredential else { throw WebAuthnError.attestedCredentialDataMissing }
        guard attested.credentialID == response.rawId.data else { throw WebAuthnError.credentialIDMismatch }

        let publicKey = try usableKey(CredentialPublicKey(cbor: attested.publicKey))
        if case .cose(let cose) = publicKey, !configuration.supportedAlgorithms.contains(cose.algorithm) {
            throw WebAuthnError.unsupportedAlgorithm(cose.algorithm.rawValue)
        }
        // Built now, so a key that cannot verify anything (a point off its curve) is refused at registration.
        let key = try CredentialVerificationKey(publicKey)

        let clientDataHash = Data(SHA256.hash(data: clientDataJSON))
        var effective = configuration
        if let provider = configuration.attestationRootProvider {
            effective.attestationTrustAnchors[attestation.format, default: []] += provider.attestationRoots(aaguid: attested.aaguid)
        }
        let trust = try AttestationVerifier(configuration: effective, now: now())
            .verify(attestation, credentialKey: key, clientDataHash: clientDataHash)
        // The one authenticator-status check: after the attestation, before anything is stored.
        try configuration.attestationRootProvider?.checkAuthenticatorStatus(aaguid: attested.aaguid)
        if configuration.requireTrustedAttestation, trust != .trusted {
            throw WebAuthnError.attestationNotTrusted(attestation.format)
        }
        credentialKeys.insert(key, credentialID: attested.credentialID, publicKey: attested.publicKeyCOSE)

        return StoredCredential(
            id: attested.credentialID, userHandle: checked.userHandle ?? Data(), publicKey: attested.publicKeyCOSE,
            keyAlgorithm: key.algorithm, signCount: authData.signCount,
            transports: Self.storableTransports(response.response.transports ?? []), backupEligible: authData.backupEligible,
            backupState: authData.backedUp, userVerifiedAtRegistration: authData.userVerified,
            aaguid: attested.aaguid, attestationFormat: attestation.format, attestationTrust: trust, createdAt: now(),
            relyingPartyID: rpID)
    }

    /// The transports worth keeping from a registration response: `AuthenticatorTransport` values are short lowercase
    /// ASCII tokens (`usb`, `nfc`, `ble`, `smart-card`, `hybrid`, `internal`), and clients ignore the ones they do not
    /// know. Anything else (empty, over 32 bytes, other bytes: a `,` would split it in a comma-joined column) is
    /// dropped, duplicates too, and at most 8 are kept.
    static func storableTransports(_ transports: [String]) -> [String] {
        var kept: [String] = []
        for transport in transports where kept.count < 8 && !kept.contains(transport) {
            let utf8 = transport.utf8
            guard (1...32).contains(utf8.count), utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-")
            }) else { continue }
            kept.append(transport)
        }
        return kept
    }

    // MARK: Authentication (§7.2)

    /// The outcome of a verified assertion: the updated record to store back.
    public struct AuthenticationResult: Sendable, Hashable {
        public var credential: StoredCredential
        public var userVerified: Bool
    }

    /// Verifies an assertion whose challenge came from the store. `lookup` finds the stored credential by id;
    /// when the request named allowed credentials, pass them as `allowedCredentialIDs` so another credential is
    /// refused. Without them the sign-in is discoverable and the response must carry the user handle.
    public func verifyAuthentication(_ response: AuthenticationResponse, allowedCredentialIDs: Set<Data>? = nil,
                                     lookup: @Sendable (Data) async throws -> StoredCredential?)
        async throws -> AuthenticationResult {
        try await authenticate(response, challenge: .issued, allowedCredentialIDs: allowedCredentialIDs, lookup: lookup)
    }

    /// Verifies an assertion against a challenge the caller kept (from `authenticationOptions(challenge:)`) and
    /// the caller's record of the credential (found by `response.rawId`). `userIdentified` is true when the user
    /// was known before the ceremony (the options listed their credentials); false for a discoverable sign-in,
    /// where the response must carry the user handle. The store is not consulted.
    public func verifyAuthentication(_ response: AuthenticationResponse, expectedChallenge: Data,
                                     credential: StoredCredential, userIdentified: Bool = false)
        async throws -> AuthenticationResult {
        try verifiedAssertion(response, expectedChallenge: expectedChallenge, credential: credential,
                              userIdentified: userIdentified)
    }

    /// `verifyAuthentication(_:expectedChallenge:credential:userIdentified:)` synchronously: a caller-kept challenge
    /// and record need nothing to wait for (the benchmarks call this).
    package func verifiedAssertion(_ response: AuthenticationResponse, expectedChallenge: Data,
                                   credential: StoredCredential, userIdentified: Bool = false) throws -> AuthenticationResult {
        let allowed: Set<Data>? = userIdentified ? [credential.id] : nil
        let client = try Self.assertionClientData(response, allowedCredentialIDs: allowed)
        let checked = try checkClientData(client, ceremony: .authentication, expectedChallenge: expectedChallenge,
                                          userHandle: nil)
        guard response.rawId.data == credential.id else { throw WebAuthnError.unknownCredential }
        return try verifyAssertion(response, checked: checked, stored: credential, allowedCredentialIDs: allowed)
    }

    func authenticate(_ response: AuthenticationResponse, challenge expected: ExpectedChallenge,
                      allowedCredentialIDs: Set<Data>?, lookup: @Sendable (Data) async throws -> StoredCredential?)
        async throws -> AuthenticationResult {
        let client = try Self.assertionClientData(response, allowedCredentialIDs: allowedCredentialIDs)
        let checked = try await checkClientData(client, ceremony: .authentication, challenge: expected)
        guard let stored = try await lookup(response.rawId.data) else { throw WebAuthnError.unknownCredential }
        return try verifyAssertion(response, checked: checked, stored: stored, allowedCredentialIDs: allowedCredentialIDs)
    }

    /// The response's type and id, the credential among the allowed ones, and its client data parsed.
    static func assertionClientData(_ response: AuthenticationResponse,
                                    allowedCredentialIDs: Set<Data>?) throws -> CollectedClientData {
        guard response.type == "public-key" else { throw WebAuthnError.malformedResponse("type \(response.type)") }
        guard response.id == response.rawId.base64URL else { throw WebAuthnError.credentialIDMismatch }
        if let allowed = allowedCredentialIDs, !allowed.isEmpty, !allowed.contains(response.rawId.data) {
            throw WebAuthnError.unknownCredential
        }
        return try CollectedClientData.parse(response.response.clientDataJSON.data)
    }

    /// §7.2 from the stored record on, once the client data is checked: the updated record.
    func verifyAssertion(_ response: AuthenticationResponse, checked: CheckedClientData, stored: StoredCredential,
                         allowedCredentialIDs: Set<Data>?) throws -> AuthenticationResult {
        var stored = stored
        let clientDataJSON = response.response.clientDataJSON.data
        // Step 6: the user handle, when given, must be the credential's owner.
        if let handle = response.response.userHandle?.data, !handle.isEmpty {
            guard handle == stored.userHandle else { throw WebAuthnError.userHandleMismatch }
        } else if allowedCredentialIDs?.isEmpty ?? true {
            // Discoverable sign-in: the authenticator must name the user.
            throw WebAuthnError.userHandleMissing
        }

        let authData = try AuthenticatorData(response.response.authenticatorData.data,
                                             strictness: configuration.cborStrictness)
        // A credential is scoped to the RP ID it was made for.
        let accepted = stored.relyingPartyID.map { id in checked.relyingPartyIDs.filter { $0 == id } }
            ?? checked.relyingPartyIDs
        try checkAuthenticatorData(authData, acceptedRelyingPartyIDs: accepted, allowMissingUP: false)
        guard authData.attestedCredential == nil else { throw WebAuthnError.unexpectedAttestedCredentialData }
        guard authData.backupEligible == stored.backupEligible else { throw WebAuthnError.backupEligibilityChanged }

        let key = try credentialKeys.key(credentialID: stored.id, publicKey: stored.publicKey) { () throws(WebAuthnError) in
            try CredentialVerificationKey(usableKey(CredentialPublicKey(encoded: stored.publicKey)))
        }
        let signed = authData.raw + SHA256.hash(data: clientDataJSON)
        guard key.isValidSignature(response.response.signature.data, for: signed) else {
            throw WebAuthnError.signatureInvalid
        }

        // Step 22: a counter that does not grow (when either side counts) signals a cloned authenticator.
        if authData.signCount != 0 || stored.signCount != 0 {
            guard authData.signCount > stored.signCount else {
                throw WebAuthnError.signCountRollback(stored: stored.signCount, received: authData.signCount)
            }
        }
        stored.signCount = authData.signCount
        stored.backupState = authData.backedUp
        stored.lastUsedAt = now()
        return AuthenticationResult(credential: stored, userVerified: authData.userVerified)
    }

    // MARK: Shared checks

    /// `key`, unless it is RS1 and `allowRS1CredentialKeys` is off (`unsupportedAlgorithm(-65535)`). The key cache
    /// only ever holds keys that passed here (the configuration of a relying party does not change).
    func usableKey(_ key: CredentialPublicKey) throws(WebAuthnError) -> CredentialPublicKey {
        if case .rs1 = key, !configuration.allowRS1CredentialKeys {
            throw .unsupportedAlgorithm(CredentialPublicKey.rs1Algorithm)
        }
        return key
    }

    /// What the client data checks established: the registering user's handle (registration) and the RP IDs
    /// whose hash the authenticator data may carry for this origin.
    struct CheckedClientData {
        var userHandle: Data?
        var relyingPartyIDs: [String]
    }

    func checkClientData(_ client: CollectedClientData, ceremony: IssuedChallenge.Ceremony,
                         challenge expected: ExpectedChallenge) async throws -> CheckedClientData {
        switch expected {
        case .issued:
            let challenge = try Self.checkTypeAndChallenge(client, ceremony: ceremony)
            // Consumed before any other check: a response is never verifiable twice.
            guard let issued = try await challenges.consume(challenge), issued.ceremony == ceremony else {
                throw WebAuthnError.unknownChallenge
            }
            guard issued.expiresAt > now() else { throw WebAuthnError.expiredChallenge }
            return try checkOrigins(client, userHandle: issued.userHandle)
        case let .given(expectedChallenge, handle):
            return try checkClientData(client, ceremony: ceremony, expectedChallenge: expectedChallenge, userHandle: handle)
        }
    }

    /// The client data checks against a challenge the caller kept.
    func checkClientData(_ client: CollectedClientData, ceremony: IssuedChallenge.Ceremony, expectedChallenge: Data,
                         userHandle: Data?) throws -> CheckedClientData {
        let challenge = try Self.checkTypeAndChallenge(client, ceremony: ceremony)
        guard ConstantTime.equals(challenge, expectedChallenge) else { throw WebAuthnError.challengeMismatch }
        return try checkOrigins(client, userHandle: userHandle)
    }

    /// The ceremony's type, and the challenge bytes the client data carries.
    static func checkTypeAndChallenge(_ client: CollectedClientData, ceremony: IssuedChallenge.Ceremony) throws -> Data {
        let expectedType = ceremony == .registration ? "webauthn.create" : "webauthn.get"
        guard client.type == expectedType else {
            throw WebAuthnError.wrongCeremonyType(expected: expectedType, actual: client.type)
        }
        guard let challenge = client.challengeBytes, !challenge.isEmpty else { throw WebAuthnError.unknownChallenge }
        return challenge
    }

    /// The origin, crossOrigin and topOrigin checks, once the challenge is established.
    func checkOrigins(_ client: CollectedClientData, userHandle: Data?) throws -> CheckedClientData {
        let relyingPartyIDs = configuration.relyingPartyIDs(acceptedFrom: client.origin)
        guard !relyingPartyIDs.isEmpty else { throw WebAuthnError.originNotAllowed(client.origin) }
        if client.crossOrigin == true {
            guard configuration.allowCrossOrigin else { throw WebAuthnError.crossOriginNotAllowed }
            // §7.1 step 10 / §7.2 step 14: topOrigin is checked when present.
            if let top = client.topOrigin {
                guard configuration.allowedTopOrigins.contains(top) else { throw WebAuthnError.topOriginNotAllowed(top) }
            } else if configuration.requireTopOrigin {
                throw WebAuthnError.topOriginMissing
            }
        } else if let top = client.topOrigin, top != client.origin {
            throw WebAuthnError.topOriginNotAllowed(top)
        }
        return CheckedClientData(userHandle: userHandle, relyingPartyIDs: relyingPartyIDs)
    }

    /// Checks the flags and that the rpIdHash is one of `acceptedRelyingPartyIDs`'; returns that RP ID.
    @discardableResult
    func checkAuthenticatorData(_ data: AuthenticatorData, acceptedRelyingPartyIDs: [String],
                                allowMissingUP: Bool) throws -> String {
        guard let rpID = acceptedRelyingPartyIDs.first(where: {
            ConstantTime.equals(data.rpIDHash, relyingPartyIDHashes[$0] ?? SHA256.hash(data: Data($0.utf8)))
        }) else { throw WebAuthnError.rpIDHashMismatch }
        if !data.userPresent && !allowMissingUP { throw WebAuthnError.userPresenceMissing }
        if configuration.userVerification == .required && !data.userVerified {
            throw WebAuthnError.userVerificationMissing
        }
        if data.backedUp && !data.backupEligible { throw WebAuthnError.backupStateWithoutEligibility }
        return rpID
    }
}
