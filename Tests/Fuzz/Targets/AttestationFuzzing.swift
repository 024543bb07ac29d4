import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// Attestation object and authenticator data. The first byte chooses (mod 4): 0 → the rest is an attestation
/// object, 1 and 3 → raw authenticator data (what an assertion carries), 2 → an attestation object verified by
/// the relying party (`RelyingPartyHarness`). Properties: the parsed parts account for every byte of the
/// authenticator data; an attestation object re-encodes to one that parses the same; the credential public key
/// bytes decode to the parsed key; without trust anchors no registration comes out trusted.
enum AttestationFuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        guard let mode = data.first else { return }
        let body = Data(data.dropFirst())
        if mode & 3 == 2 {
            try RelyingPartyHarness.verify(body)
        } else if mode & 1 == 0 {
            guard let object = try? AttestationObject(body) else { return }
            try check(object.authenticatorData)
            let again: AttestationObject
            do { again = try AttestationObject(object.encoded) } catch {
                throw FuzzPropertyViolation(.attestation, "the encoding of a parsed attestation object is refused: \(error)")
            }
            try require(again.format == object.format && again.statement.encoded == object.statement.encoded
                        && again.authenticatorData.raw == object.authenticatorData.raw,
                        .attestation, "encode → parse gives another attestation object")
        } else {
            guard let authData = try? AuthenticatorData(body) else { return }
            try check(authData)
        }
    }

    /// Rebuilds the authenticator data from its parsed parts and checks the credential key.
    static func check(_ authData: AuthenticatorData) throws(FuzzPropertyViolation) {
        var rebuilt = authData.rpIDHash
        rebuilt.append(authData.flags.rawValue)
        withUnsafeBytes(of: authData.signCount.bigEndian) { rebuilt.append(contentsOf: $0) }
        if let credential = authData.attestedCredential {
            rebuilt.append(credential.aaguid)
            rebuilt.append(UInt8(credential.credentialID.count >> 8))
            rebuilt.append(UInt8(credential.credentialID.count & 0xff))
            rebuilt.append(credential.credentialID)
            rebuilt.append(credential.publicKeyCOSE)
            let decoded = try? CBORDecoder(requireCanonical: false).decode(credential.publicKeyCOSE)
            try require(decoded?.encoded == credential.publicKey.encoded, .attestation,
                        "credential public key bytes do not decode to the parsed key")
            _ = try? COSEKey(cbor: credential.publicKey)
        }
        let raw = authData.raw
        try require(raw.count >= rebuilt.count && Data(raw.prefix(rebuilt.count)) == rebuilt, .attestation,
                    "parsed authenticator data parts do not match its bytes")
        try require((authData.extensions == nil) == (raw.count == rebuilt.count), .attestation,
                    "bytes after the credential without an extensions map")
    }

    /// Registrations and assertions made by the software authenticator (with and without extensions).
    static func seeds() -> [Data] {
        var seeds: [Data] = []
        let authenticator = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), aaguid: Data(repeating: 7, count: 16))
        for alg in [COSEAlgorithmIdentifier.es256, .edDSA] {
            let options = PublicKeyCredentialCreationOptions(
                rp: RelyingPartyEntity(id: "example.com", name: "Example"),
                user: UserEntity(id: Data([1, 2, 3]), name: "user", displayName: "User"),
                challenge: Data(repeating: 9, count: 32), pubKeyCredParams: [PublicKeyCredentialParameters(alg: alg)])
            guard let registration = try? authenticator.register(options, origin: "https://example.com") else { continue }
            seeds.append(Data([0]) + registration.response.attestationObject.data)
            seeds.append(Data([2]) + registration.response.attestationObject.data)
            if alg == .es256, let object = try? AttestationObject(registration.response.attestationObject.data) {
                seeds += RelyingPartyHarness.seeds(authenticatorData: object.authenticatorData.raw).map { Data([2]) + $0 }
            }
            let request = PublicKeyCredentialRequestOptions(challenge: Data(repeating: 5, count: 32), rpId: "example.com")
            if let assertion = try? authenticator.authenticate(request, origin: "https://example.com") {
                seeds.append(Data([1]) + assertion.response.authenticatorData.data)
            }
        }
        var withExtensions = Data(repeating: 0xaa, count: 32)
        withExtensions.append(0x81)
        withExtensions.append(contentsOf: [0, 0, 0, 1])
        withExtensions.append(CBOR.map(["credProtect": 2]).encoded)
        seeds.append(Data([1]) + withExtensions)
        return seeds
    }
}
