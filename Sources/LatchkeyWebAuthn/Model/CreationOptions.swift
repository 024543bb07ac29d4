import Foundation

/// `PublicKeyCredentialRpEntity`.
public struct RelyingPartyEntity: Sendable, Hashable, Codable {
    public var id: String?
    public var name: String
    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

/// `PublicKeyCredentialUserEntityJSON`. `id` is the user handle: random bytes, never the username.
public struct UserEntity: Sendable, Hashable, Codable {
    public var id: Base64URLBytes
    public var name: String
    public var displayName: String
    public init(id: Data, name: String, displayName: String) {
        self.id = Base64URLBytes(id)
        self.name = name
        self.displayName = displayName
    }
}

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3), what `navigator.credentials.create`
/// receives after `PublicKeyCredential.parseCreationOptionsFromJSON`.
public struct PublicKeyCredentialCreationOptions: Sendable, Hashable, Codable {
    public var rp: RelyingPartyEntity
    public var user: UserEntity
    public var challenge: Base64URLBytes
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    public var timeout: Int?
    public var excludeCredentials: [PublicKeyCredentialDescriptor]?
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    public var hints: [String]?
    public var attestation: AttestationConveyancePreference?
    public var extensions: [String: Bool]?

    public init(rp: RelyingPartyEntity, user: UserEntity, challenge: Data,
                pubKeyCredParams: [PublicKeyCredentialParameters], timeout: Int? = nil,
                excludeCredentials: [PublicKeyCredentialDescriptor]? = nil,
                authenticatorSelection: AuthenticatorSelectionCriteria? = nil, hints: [String]? = nil,
                attestation: AttestationConveyancePreference? = nil, extensions: [String: Bool]? = nil) {
        self.rp = rp
        self.user = user
        self.challenge = Base64URLBytes(challenge)
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
        self.extensions = extensions
    }
}

/// `PublicKeyCredentialRequestOptionsJSON`. An empty `allowCredentials` asks for a discoverable
/// credential (also what conditional UI / autofill uses).
public struct PublicKeyCredentialRequestOptions: Sendable, Hashable, Codable {
    public var challenge: Base64URLBytes
    public var timeout: Int?
    public var rpId: String?
    public var allowCredentials: [PublicKeyCredentialDescriptor]?
    public var userVerification: UserVerificationRequirement?
    public var hints: [String]?

    public init(challenge: Data, timeout: Int? = nil, rpId: String?,
                allowCredentials: [PublicKeyCredentialDescriptor]? = nil,
                userVerification: UserVerificationRequirement? = nil, hints: [String]? = nil) {
        self.challenge = Base64URLBytes(challenge)
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
    }
}
