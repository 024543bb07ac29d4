import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// A WebAuthn Level 3 relying party: makes ceremony options and verifies every byte of what
/// comes back (§7.1 registration, §7.2 authentication). Usable without the HTTP server.
public struct WebAuthnRelyingParty: Sendable {
    public let configuration: WebAuthnConfiguration
    let challenges: any ChallengeStore
    let now: @Sendable () -> Date

    public init(configuration: WebAuthnConfiguration, challenges: any ChallengeStore = InMemoryChallengeStore(),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.challenges = challenges
        self.now = now
    }

    /// SHA-256 of the RP ID, which authenticator data must start with.
    public var relyingPartyIDHash: Data { SHA256.hash(data: Data(configuration.relyingPartyID.utf8)) }

    /// A new random user handle (64 bytes, never derived from the username).
    public static func makeUserHandle() -> Data { SecureRandom.bytes(count: 64) }

    // MARK: Options

    /// Options for `navigator.credentials.create()`, with a fresh single-use 32-byte challenge.
    public func registrationOptions(user: UserEntity, excludeCredentials: [StoredCredential] = [])
        async throws -> PublicKeyCredentialCreationOptions {
        let challenge = try await issueChallenge(.registration, userHandle: user.id.data)
        return PublicKeyCredentialCreationOptions(
            rp: RelyingPartyEntity(id: configuration.relyingPartyID, name: configuration.relyingPartyName),
            user: user, challenge: challenge,
            pubKeyCredParams: configuration.supportedAlgorithms.compactMap {
                COSEAlgorithmIdentifier(rawValue: $0.rawValue).map(PublicKeyCredentialParameters.init(alg:))
            },
            timeout: configuration.timeoutMilliseconds,
            excludeCredentials: excludeCredentials.map { PublicKeyCredentialDescriptor(id: $0.id, transports: $0.transports) },
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: configuration.residentKey,
                                                                   userVerification: configuration.userVerification),
            attestation: configuration.attestation,
            extensions: ["credProps": true])
    }

    /// Options for `navigator.credentials.get()`. With no credentials listed the browser offers
    /// discoverable passkeys (also the conditional-UI / autofill request).
    public func authenticationOptions(allowCredentials: [StoredCredential] = []) async throws
        -> PublicKeyCredentialRequestOptions {
        let challenge = try await issueChallenge(.authentication, userHandle: nil)
        return PublicKeyCredentialRequestOptions(
            challenge: challenge, timeout: configuration.timeoutMilliseconds, rpId: configuration.relyingPartyID,
            allowCredentials: allowCredentials.map { PublicKeyCredentialDescriptor(id: $0.id, transports: $0.transports) },
            userVerification: configuration.userVerification)
    }

    func issueChallenge(_ ceremony: IssuedChallenge.Ceremony, userHandle: Data?) async throws -> Data {
        let challenge = SecureRandom.bytes(count: 32)
        try await challenges.insert(IssuedChallenge(challenge: challenge, ceremony: ceremony, userHandle: userHandle,
                                                    expiresAt: now().addingTimeInterval(configuration.challengeLifetime)))
        return challenge
    }

    // MARK: Registration (§7.1)

    /// Verifies a registration response and returns the credential record to store.
    /// `isRegistered` tells whether a credential id is already known (step 26).
    public func verifyRegistration(_ response: RegistrationResponse,
                                   isRegistered: @Sendable (Data) async throws -> Bool = { _ in false })
        async throws -> StoredCredential {
        guard response.type == "public-key" else { throw WebAuthnError.malformedResponse("type \(response.type)") }
        guard response.id == response.rawId.base64URL else { throw WebAuthnError.credentialIDMismatch }
        let clientDataJSON = response.response.clientDataJSON.data
        let client = try CollectedClientData.parse(clientDataJSON)
        let issued = try await checkClientData(client, ceremony: .registration)

        let attestation = try AttestationObject(response.response.attestationObject.data)
        let authData = attestation.authenticatorData
        try checkAuthenticatorData(authData, allowMissingUP: configuration.allowConditionalRegistration)
        guard let attested = authData.attestedCredential else { throw WebAuthnError.attestedCredentialDataMissing }
        guard attested.credentialID == response.rawId.data else { throw WebAuthnError.credentialIDMismatch }

        let key: COSEKey
        do { key = try COSEKey(cbor: attested.publicKey) } catch CryptoError.unsupportedAlgorithm {
            throw WebAuthnError.unsupportedAlgorithm(attested.publicKey[int: 3]?.intValue ?? 0)
        } catch {
            throw WebAuthnError.invalidPublicKey("\(error)")
        }
        guard configuration.supportedAlgorithms.contains(key.algorithm) else {
            throw WebAuthnError.unsupportedAlgorithm(key.algorithm.rawValue)
        }

        let clientDataHash = SHA256.hash(data: clientDataJSON)
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
        guard try await !isRegistered(attested.credentialID) else { throw WebAuthnError.credentialAlreadyRegistered }

        return StoredCredential(
            id: attested.credentialID, userHandle: issued.userHandle ?? Data(), publicKey: attested.publicKeyCOSE,
            algorithm: key.algorithm.rawValue, signCount: authData.signCount,
            transports: response.response.transports ?? [], backupEligible: authData.backupEligible,
            backupState: authData.backedUp, userVerifiedAtRegistration: authData.userVerified,
            aaguid: attested.aaguid, attestationFormat: attestation.format, attestationTrust: trust, createdAt: now())
    }

    // MARK: Authentication (§7.2)

    /// The outcome of a verified assertion: the updated record to store back.
    public struct AuthenticationResult: Sendable, Hashable {
        public var credential: StoredCredential
        public var userVerified: Bool
    }

    /// Verifies an assertion. `lookup` finds the stored credential by id; when the request named
    /// allowed credentials, pass them as `allowedCredentialIDs` so another credential is refused.
    public func verifyAuthentication(_ response: AuthenticationResponse, allowedCredentialIDs: Set<Data>? = nil,
                                     lookup: @Sendable (Data) async throws -> StoredCredential?)
        async throws -> AuthenticationResult {
        guard response.type == "public-key" else { throw WebAuthnError.malformedResponse("type \(response.type)") }
        guard response.id == response.rawId.base64URL else { throw WebAuthnError.credentialIDMismatch }
        let credentialID = response.rawId.data
        if let allowed = allowedCredentialIDs, !allowed.isEmpty, !allowed.contains(credentialID) {
            throw WebAuthnError.unknownCredential
        }
        let clientDataJSON = response.response.clientDataJSON.data
        let client = try CollectedClientData.parse(clientDataJSON)
        _ = try await checkClientData(client, ceremony: .authentication)

        guard var stored = try await lookup(credentialID) else { throw WebAuthnError.unknownCredential }
        // Step 6: the user handle, when given, must be the credential's owner.
        if let handle = response.response.userHandle?.data, !handle.isEmpty {
            guard handle == stored.userHandle else { throw WebAuthnError.userHandleMismatch }
        } else if allowedCredentialIDs?.isEmpty ?? true {
            // Discoverable sign-in: the authenticator must name the user.
            throw WebAuthnError.userHandleMismatch
        }

        let authData = try AuthenticatorData(response.response.authenticatorData.data)
        try checkAuthenticatorData(authData, allowMissingUP: false)
        guard authData.attestedCredential == nil else { throw WebAuthnError.unexpectedAttestedCredentialData }
        guard authData.backupEligible == stored.backupEligible else { throw WebAuthnError.backupEligibilityChanged }

        let key: COSEKey
        do { key = try COSEKey(encoded: stored.publicKey) } catch { throw WebAuthnError.invalidPublicKey("\(error)") }
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

    func checkClientData(_ client: CollectedClientData, ceremony: IssuedChallenge.Ceremony) async throws -> IssuedChallenge {
        let expectedType = ceremony == .registration ? "webauthn.create" : "webauthn.get"
        guard client.type == expectedType else {
            throw WebAuthnError.wrongCeremonyType(expected: expectedType, actual: client.type)
        }
        guard let challenge = client.challengeBytes, !challenge.isEmpty else { throw WebAuthnError.unknownChallenge }
        // Consumed before any other check: a response is never verifiable twice.
        guard let issued = try await challenges.consume(challenge), issued.ceremony == ceremony else {
            throw WebAuthnError.unknownChallenge
        }
        guard issued.expiresAt > now() else { throw WebAuthnError.expiredChallenge }
        guard configuration.allowedOrigins.contains(client.origin) else {
            throw WebAuthnError.originNotAllowed(client.origin)
        }
        if client.crossOrigin == true {
            guard configuration.allowCrossOrigin else { throw WebAuthnError.crossOriginNotAllowed }
            guard let top = client.topOrigin, configuration.allowedTopOrigins.contains(top) else {
                throw WebAuthnError.topOriginNotAllowed(client.topOrigin ?? "")
            }
        } else if let top = client.topOrigin, top != client.origin {
            throw WebAuthnError.topOriginNotAllowed(top)
        }
        return issued
    }

    func checkAuthenticatorData(_ data: AuthenticatorData, allowMissingUP: Bool) throws {
        guard ConstantTime.equals(data.rpIDHash, relyingPartyIDHash) else { throw WebAuthnError.rpIDHashMismatch }
        if !data.userPresent && !allowMissingUP { throw WebAuthnError.userPresenceMissing }
        if configuration.userVerification == .required && !data.userVerified {
            throw WebAuthnError.userVerificationMissing
        }
        if data.backedUp && !data.backupEligible { throw WebAuthnError.backupStateWithoutEligibility }
    }
}
