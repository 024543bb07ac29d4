import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// Verifies App Attest attestations and assertions as Apple's "Validating apps that connect to your server" describes,
/// over the WebAuthn relying party's parsers (`AttestationObject`, `AuthenticatorData`, CBOR, X.509, DER).
///
/// Every check must pass. They run cheapest and most specific first, so a changed field is refused by the check
/// that reads it (a changed counter as `counter`, not as the nonce that also covers it) and a forgery costs no chain
/// verification: attestation — format, key identifier (5), app ID (6), counter (7), environment (8), credential ID
/// (9), nonce (2–4), chain (1); assertion — app ID (4), counter (5), signature (1–3). The one-time challenge of an
/// assertion (6) is the caller's (`AppAttestService`): it lives in the database.
public struct AppAttestVerifier: Sendable {
    public let configuration: AppAttestConfiguration
    /// SHA-256 of each accepted app ID, hashed once.
    let appIDHashes: [(appID: AppleAppID, hash: Data)]
    /// Verification keys of recently used attested keys (the passkeys' cache: CLOCK eviction, checked against the
    /// stored key bytes).
    let keys: CredentialKeyCache

    /// The credential certificate's nonce extension.
    public static let nonceExtensionOID = "1.2.840.113635.100.8.2"
    /// prime256v1, the named curve of App Attest keys.
    static let p256OID = "1.2.840.10045.3.1.7"
    /// The attestation statement format.
    public static let format = "apple-appattest"

    public init(configuration: AppAttestConfiguration) {
        self.configuration = configuration
        appIDHashes = configuration.appIDs.map { ($0, Data(SHA256.hash(data: Data($0.description.utf8)))) }
        keys = CredentialKeyCache(capacity: configuration.keyCacheCapacity)
    }

    /// Verifies an attestation (`attestKey(_:clientDataHash:)`'s object) of the key `keyID`, made over
    /// `clientDataHash` (`AppAttestClientData.attestationHash(challenge:)`), with the chain checked at `now`.
    /// Returns the key to store (counter 0).
    public func verifyAttestation(_ data: Data, keyID: Data, clientDataHash: Data,
                                  at now: Date) throws(AppAttestError) -> AppAttestKeyRecord {
        let object: AttestationObject
        do { object = try AttestationObject(data) } catch { throw .malformedAttestation("\(error)") }
        guard object.format == Self.format else { throw .formatInvalid(object.format) }
        let authData = object.authenticatorData
        guard let credential = authData.attestedCredential else {
            throw .malformedAttestation("the authenticator data has no attested credential")
        }
        guard let receipt = object.statement[text: "receipt"]?.bytesValue else {
            throw .malformedAttestation("attStmt.receipt is missing")
        }
        let chain = try certificates(object.statement[text: "x5c"])

        // Step 5: SHA-256 of the certified key's uncompressed point is the key identifier. (The point is read, not
        // decoded: the chain vouches for it, and the stored key is built and checked when it first verifies.)
        guard let key = chain[0].ellipticCurvePublicKey, key.curve == Self.p256OID, key.point.count == 65,
              key.point.first == 0x04, Data(SHA256.hash(data: key.point)) == keyID else {
            throw .keyIdentifierMismatch
        }
        // Step 6: the RP ID hash is SHA-256 of an accepted app ID.
        guard let appID = appIDHashes.first(where: { $0.hash == authData.rpIDHash })?.appID else { throw .appIDMismatch }
        // Step 7: a fresh key has counted nothing.
        guard authData.signCount == 0 else { throw .counterNotZero(authData.signCount) }
        // Step 8: the AAGUID names the configured environment.
        guard credential.aaguid == configuration.environment.aaguid else {
            throw .environmentMismatch(expected: configuration.environment)
        }
        // Step 9: the credential ID is the key identifier.
        guard credential.credentialID == keyID else { throw .credentialIDMismatch }
        // Steps 2–4: the certificate vouches for this authenticator data and this challenge.
        try checkNonce(chain[0], authenticatorData: authData.raw, clientDataHash: clientDataHash)
        // Step 1: the chain ends at an App Attest root, valid at `now`.
        do {
            try chain[0].verifyChain(intermediates: Array(chain.dropFirst()), trustAnchors: configuration.trustAnchors, at: now)
        } catch {
            throw .certificateChainInvalid("\(error)")
        }
        let point = key.point.dropFirst()
        let cose = COSEKey.ec2(algorithm: .es256, curve: .p256, x: Data(point.prefix(32)), y: Data(point.suffix(32))).encoded
        return AppAttestKeyRecord(keyID: keyID, appID: appID.description, environment: configuration.environment,
                                  publicKey: cose, counter: 0, receipt: receipt, createdAt: Int64(now.timeIntervalSince1970))
    }

    /// `x5c`: the credential certificate, then its intermediates (Apple sends one).
    func certificates(_ x5c: CBOR?) throws(AppAttestError) -> [Certificate] {
        guard let items = x5c?.arrayValue, !items.isEmpty, items.count <= 4 else {
            throw .certificateChainInvalid("attStmt.x5c must hold the credential certificate and its intermediates")
        }
        var chain: [Certificate] = []
        for item in items {
            guard let der = item.bytesValue, let certificate = try? Certificate(derRepresentation: der) else {
                throw .certificateChainInvalid("an x5c entry is not a certificate")
            }
            chain.append(certificate)
        }
        return chain
    }

    /// The extension's value is `SEQUENCE { [1] EXPLICIT OCTET STRING }`, the octets `SHA256(authData ‖ clientDataHash)`.
    func checkNonce(_ certificate: Certificate, authenticatorData: Data, clientDataHash: Data) throws(AppAttestError) {
        guard let value = certificate.extensionValue(oid: Self.nonceExtensionOID),
              let sequence = try? DERReader.parse(value), sequence.isUniversal(DERElement.sequence),
              sequence.isConstructed, sequence.children.count == 1,
              let tagged = sequence.children.first, tagged.isContext(1), tagged.isConstructed, tagged.children.count == 1,
              let octets = tagged.children.first?.octetStringValue else {
            throw .nonceMissing
        }
        let nonce = AppAttestAssertion.nonce(authenticatorData: authenticatorData, clientDataHash: clientDataHash)
        guard octets == Data(nonce) else { throw .nonceMismatch }
    }
}
