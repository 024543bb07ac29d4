import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// A platform authenticator in software: makes real P-256 passkeys and signs assertions exactly as
/// WebAuthn describes (`none` attestation, ES256). On Linux this is what lets `latchkey` sign in to a
/// server with a passkey; tests use its knobs to produce faulty responses.
public final class SoftwareAuthenticator: Sendable {
    /// Flags and behaviours tests can change to exercise the relying party's checks.
    public struct Behaviour: Sendable {
        public var userPresent = true
        public var userVerified = true
        public var backupEligible = false
        public var backedUp = false
        /// Added to the stored counter on every assertion (0 keeps the counter fixed).
        public var signCountIncrement: UInt32 = 1
        public var crossOrigin = false
        public var topOrigin: String?
        public init() {}
    }

    let store: any SoftwareCredentialStore
    let aaguid: Data
    let behaviourBox: Locked<Behaviour>
    let now: @Sendable () -> Date

    public init(store: any SoftwareCredentialStore, aaguid: Data = Data(count: 16), behaviour: Behaviour = Behaviour(),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.aaguid = aaguid
        self.behaviourBox = Locked(behaviour)
        self.now = now
    }

    public var behaviour: Behaviour {
        get { behaviourBox.withLock { $0 } }
        set { behaviourBox.withLock { $0 = newValue } }
    }

    /// Creates a passkey for `options` as seen from `origin`, returning what `credential.toJSON()` gives.
    public func register(_ options: PublicKeyCredentialCreationOptions, origin: String) throws -> RegistrationResponse {
        guard options.pubKeyCredParams.contains(where: { $0.alg == COSEAlgorithmIdentifier.es256.rawValue }) else {
            throw WebAuthnError.unsupportedAlgorithm(options.pubKeyCredParams.first?.alg ?? 0)
        }
        let rpID = options.rp.id ?? Self.host(of: origin)
        let excluded = Set((options.excludeCredentials ?? []).map(\.id.data))
        if try store.credentials(forRelyingParty: rpID).contains(where: { excluded.contains($0.id) }) {
            throw WebAuthnError.credentialAlreadyRegistered
        }
        let key = try P256.Signing.PrivateKey()
        let id = SecureRandom.bytes(count: 32)
        let credential = SoftwareCredential(id: id, relyingPartyID: rpID, userHandle: options.user.id.data,
                                            userName: options.user.name, privateKey: try key.derRepresentation,
                                            signCount: 0, createdAt: now())
        let point = key.publicKey.x963Representation
        let cose = COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33], y: point[33..<65]).encoded
        var attested = aaguid
        attested.append(UInt8(id.count >> 8))
        attested.append(UInt8(id.count & 0xff))
        attested += id
        attested += cose
        let authData = authenticatorData(rpID: rpID, extraFlags: 0x40, signCount: 0) + attested
        let clientData = try clientDataJSON(type: "webauthn.create", challenge: options.challenge.data, origin: origin)
        let object = CBOR.map(["fmt": "none", "attStmt": .map([]), "authData": .byteString(authData)]).encoded
        try store.save(credential)
        return RegistrationResponse(rawId: id, response: AuthenticatorAttestationResponse(
            clientDataJSON: clientData, attestationObject: object, transports: ["internal"]),
            authenticatorAttachment: "platform")
    }

    /// Signs in with a stored passkey for `options` as seen from `origin`.
    public func authenticate(_ options: PublicKeyCredentialRequestOptions, origin: String) throws -> AuthenticationResponse {
        let rpID = options.rpId ?? Self.host(of: origin)
        let allowed = Set((options.allowCredentials ?? []).map(\.id.data))
        let candidates = try store.credentials(forRelyingParty: rpID)
            .filter { allowed.isEmpty || allowed.contains($0.id) }
        guard var credential = candidates.max(by: { $0.createdAt < $1.createdAt }) else {
            throw WebAuthnError.unknownCredential
        }
        credential.signCount &+= behaviour.signCountIncrement
        let authData = authenticatorData(rpID: rpID, extraFlags: 0, signCount: credential.signCount)
        let clientData = try clientDataJSON(type: "webauthn.get", challenge: options.challenge.data, origin: origin)
        let key = try P256.Signing.PrivateKey(derRepresentation: credential.privateKey)
        let signature = try key.signature(for: authData + SHA256.hash(data: clientData)).derRepresentation
        try store.save(credential)
        return AuthenticationResponse(rawId: credential.id, response: AuthenticatorAssertionResponse(
            clientDataJSON: clientData, authenticatorData: authData, signature: signature,
            userHandle: credential.userHandle), authenticatorAttachment: "platform")
    }

    func authenticatorData(rpID: String, extraFlags: UInt8, signCount: UInt32) -> Data {
        let b = behaviour
        var flags = extraFlags
        if b.userPresent { flags |= 0x01 }
        if b.userVerified { flags |= 0x04 }
        if b.backupEligible { flags |= 0x08 }
        if b.backedUp { flags |= 0x10 }
        var data = Data(SHA256.hash(data: Data(rpID.utf8)))
        data.append(flags)
        withUnsafeBytes(of: signCount.bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    struct ClientData: Encodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool
        var topOrigin: String?
    }

    func clientDataJSON(type: String, challenge: Data, origin: String) throws -> Data {
        let b = behaviour
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(ClientData(type: type, challenge: challenge.base64URLEncodedString(), origin: origin,
                                             crossOrigin: b.crossOrigin, topOrigin: b.topOrigin))
    }

    static func host(of origin: String) -> String {
        URL(string: origin)?.host ?? origin
    }
}

/// A software-credential store in memory (tests, previews).
public final class InMemorySoftwareCredentialStore: SoftwareCredentialStore {
    private let items = Locked<[Data: SoftwareCredential]>([:])
    public init() {}
    public func save(_ credential: SoftwareCredential) throws { items.withLock { $0[credential.id] = credential } }
    public func credentials(forRelyingParty rpID: String) throws -> [SoftwareCredential] {
        items.withLock { Array($0.values.filter { $0.relyingPartyID == rpID }) }
    }
}
