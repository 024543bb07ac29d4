import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// Verifies attestation statements (WebAuthn §8): `none`, `packed` (self and full), `fido-u2f`, `apple`,
/// `tpm`, `android-key`, `android-safetynet`.
///
/// Policy: with conveyance `none` (and trusted attestation not required) the statement of any format is
/// ignored and the credential registers as `.none`. Otherwise a known format must pass all its checks (without
/// a configured root the result is `.uncertain`), and an unknown format is accepted as `.none` unless trusted
/// attestation is required.
struct AttestationVerifier {
    let configuration: WebAuthnConfiguration
    let now: Date

    /// id-fido-gen-ce-aaguid: the AAGUID an attestation certificate vouches for.
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"
    /// Apple's anonymous attestation nonce extension.
    static let appleNonceExtensionOID = "1.2.840.113635.100.8.2"

    func verify(_ object: AttestationObject, credentialKey: CredentialVerificationKey,
                clientDataHash: Data) throws -> AttestationTrust {
        let statement = object.statement
        let authData = object.authenticatorData
        if object.format == "none" {
            guard statement.mapEntries?.isEmpty == true else {
                throw WebAuthnError.attestationInvalid("none: attStmt must be empty")
            }
            return .none
        }
        if configuration.attestation == .none && !configuration.requireTrustedAttestation { return .none }
        switch object.format {
        case "packed":
            return try verifyPacked(statement, authData: authData, credentialKey: credentialKey,
                                    clientDataHash: clientDataHash)
        case "fido-u2f":
            return try verifyFIDOU2F(statement, authData: authData, credentialKey: credentialKey.publicKey.keyMaterial,
                                     clientDataHash: clientDataHash)
        case "apple":
            return try verifyApple(statement, authData: authData, credentialKey: credentialKey.publicKey.keyMaterial,
                                   clientDataHash: clientDataHash)
        case "tpm":
            return try verifyTPM(statement, authData: authData, credentialKey: credentialKey.publicKey.keyMaterial,
                                 clientDataHash: clientDataHash)
        case "android-key":
            return try verifyAndroidKey(statement, authData: authData, credentialKey: credentialKey.publicKey.keyMaterial,
                                        clientDataHash: clientDataHash)
        case "android-safetynet":
            return try verifyAndroidSafetyNet(statement, authData: authData, clientDataHash: clientDataHash)
        default:
            guard !configuration.requireTrustedAttestation else {
                throw WebAuthnError.unsupportedAttestationFormat(object.format)
            }
            return .none
        }
    }

    // §8.2
    func verifyPacked(_ statement: CBOR, authData: AuthenticatorData, credentialKey: CredentialVerificationKey,
                      clientDataHash: Data) throws -> AttestationTrust {
        guard let algValue = statement[text: "alg"]?.intValue else { throw WebAuthnError.attestationInvalid("packed: alg missing") }
        guard let sig = statement[text: "sig"]?.bytesValue else { throw WebAuthnError.attestationInvalid("packed: sig missing") }
        let signed = authData.raw + clientDataHash
        guard let x5c = statement[text: "x5c"] else {
            // Self attestation: the credential key signs, with its own algorithm (RS1 too, when its keys are allowed).
            guard algValue == credentialKey.algorithm else {
                throw WebAuthnError.attestationInvalid("packed self: alg differs from the credential's")
            }
            guard credentialKey.isValidSignature(sig, for: signed) else {
                throw WebAuthnError.attestationInvalid("packed self: signature")
            }
            return .selfAttested
        }
        guard let alg = COSEAlgorithm(rawValue: algValue) else { throw WebAuthnError.unsupportedAlgorithm(algValue) }
        let chain = try certificates(x5c, format: "packed")
        let leaf = chain[0]
        guard Self.verify(signature: sig, of: signed, spki: try leaf.subjectPublicKeyInfo, algorithm: alg) else {
            throw WebAuthnError.attestationInvalid("packed: signature by the attestation certificate")
        }
        // §8.2.1 certificate requirements.
        guard leaf.version == 3 else { throw WebAuthnError.attestationInvalid("packed: certificate is not v3") }
        guard leaf.subjectAttribute("OU") == ["Authenticator Attestation"],
              !leaf.subjectAttribute("C").isEmpty, !leaf.subjectAttribute("O").isEmpty,
              !leaf.subjectAttribute("CN").isEmpty else {
            throw WebAuthnError.attestationInvalid("packed: certificate subject")
        }
        guard !leaf.isCertificateAuthority else { throw WebAuthnError.attestationInvalid("packed: certificate is a CA") }
        switch Self.aaguidExtensionProblem(leaf, authData: authData) {
        case .critical: throw WebAuthnError.attestationInvalid("packed: AAGUID extension is critical")
        case .mismatch: throw WebAuthnError.attestationInvalid("packed: AAGUID differs from the certificate's")
        case nil: break
        }
        return try trust(chain, format: "packed")
    }

    // §8.6
    func verifyFIDOU2F(_ statement: CBOR, authData: AuthenticatorData, credentialKey: COSEKey,
                       clientDataHash: Data) throws -> AttestationTrust {
        guard let sig = statement[text: "sig"]?.bytesValue, let x5c = statement[text: "x5c"] else {
            throw WebAuthnError.attestationInvalid("fido-u2f: sig or x5c missing")
        }
        let chain = try certificates(x5c, format: "fido-u2f")
        guard chain.count == 1 else { throw WebAuthnError.attestationInvalid("fido-u2f: x5c must hold one certificate") }
        let spki = try chain[0].subjectPublicKeyInfo
        guard (try? P256.Signing.PublicKey(derRepresentation: spki)) != nil else {
            throw WebAuthnError.attestationInvalid("fido-u2f: certificate key is not P-256")
        }
        guard case let .ec2(.es256, .p256, x, y) = credentialKey,
              let credentialID = authData.attestedCredential?.credentialID else {
            throw WebAuthnError.attestationInvalid("fido-u2f: credential key must be P-256")
        }
        var data = Data([0x00])
        data += authData.rpIDHash
        data += clientDataHash
        data += credentialID
        data += Data([0x04]) + x + y
        guard Self.verify(signature: sig, of: data, spki: spki, algorithm: .es256) else {
            throw WebAuthnError.attestationInvalid("fido-u2f: signature")
        }
        return try trust(chain, format: "fido-u2f")
    }

    // §8.8
    func verifyApple(_ statement: CBOR, authData: AuthenticatorData, credentialKey: COSEKey,
                     clientDataHash: Data) throws -> AttestationTrust {
        guard let x5c = statement[text: "x5c"] else { throw WebAuthnError.attestationInvalid("apple: x5c missing") }
        let chain = try certificates(x5c, format: "apple")
        let nonce = SHA256.hash(data: authData.raw + clientDataHash)
        // Extension value: SEQUENCE { [1] EXPLICIT OCTET STRING (32) }.
        let expected = Data([0x30, 0x24, 0xa1, 0x22, 0x04, 0x20]) + nonce
        guard chain[0].extensionValue(oid: Self.appleNonceExtensionOID) == expected else {
            throw WebAuthnError.attestationInvalid("apple: nonce differs from the certificate's")
        }
        let certificateKey = try chain[0].subjectPublicKeyInfo
        guard let credentialSPKI = try? credentialKey.subjectPublicKeyInfo(), credentialSPKI == certificateKey else {
            throw WebAuthnError.attestationInvalid("apple: credential key differs from the certificate's")
        }
        return try trust(chain, format: "apple")
    }

    // MARK: Helpers

    func certificates(_ x5c: CBOR, format: String) throws -> [Certificate] {
        guard let items = x5c.arrayValue, !items.isEmpty, items.count <= 8 else {
            throw WebAuthnError.attestationInvalid("\(format): x5c must be a non-empty array")
        }
        return try items.enumerated().map { index, item in
            guard let der = item.bytesValue else { throw WebAuthnError.attestationInvalid("\(format): x5c entry") }
            do {
                // Early U2F keys' leaves declare unused bits in their signature BIT STRING, which OpenSSL
                // never verifies; the signature and every chain check still apply (see that initializer).
                if format == "fido-u2f", index == 0 {
                    return try Certificate(derRepresentationToleratingUnusedSignatureBits: der)
                }
                return try Certificate(derRepresentation: der)
            } catch {
                throw WebAuthnError.attestationInvalid("\(format): x5c certificate does not parse")
            }
        }
    }

    /// Chains each certificate to the next; then to a configured root when there is one.
    func trust(_ chain: [Certificate], format: String) throws -> AttestationTrust {
        guard Self.isLinked(chain) else { throw WebAuthnError.attestationInvalid("\(format): x5c chain is broken") }
        guard let anchors = configuration.attestationTrustAnchors[format], !anchors.isEmpty else { return .uncertain }
        do {
            try chain[0].verifyChain(intermediates: Array(chain.dropFirst()), trustAnchors: anchors, at: now)
        } catch {
            throw WebAuthnError.attestationNotTrusted("\(format): \(error)")
        }
        return .trusted
    }

    /// Whether each certificate of `chain` is signed by the next one.
    static func isLinked(_ chain: [Certificate]) -> Bool {
        zip(chain, chain.dropFirst()).allSatisfy { cert, issuer in cert.isSigned(by: issuer) }
    }

    enum AAGUIDExtensionProblem { case critical, mismatch }

    /// What is wrong with the certificate's id-fido-gen-ce-aaguid extension, if it has one: it must be
    /// non-critical, and its value an OCTET STRING holding the authenticator data's 16-byte AAGUID.
    static func aaguidExtensionProblem(_ certificate: Certificate, authData: AuthenticatorData) -> AAGUIDExtensionProblem? {
        guard let value = certificate.extensionValue(oid: aaguidExtensionOID) else { return nil }
        guard !certificate.isExtensionCritical(oid: aaguidExtensionOID) else { return .critical }
        guard value.count == 18, value.prefix(2) == Data([0x04, 0x10]),
              value.suffix(16) == authData.attestedCredential?.aaguid else { return .mismatch }
        return nil
    }

    /// Verifies a signature made with the key of a SubjectPublicKeyInfo under a COSE algorithm.
    static func verify(signature: Data, of data: Data, spki: Data, algorithm: COSEAlgorithm) -> Bool {
        switch algorithm {
        case .es256:
            guard let key = try? P256.Signing.PublicKey(derRepresentation: spki),
                  let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: data)
        case .es384:
            guard let key = try? P384.Signing.PublicKey(derRepresentation: spki),
                  let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: data)
        case .edDSA:
            guard let key = try? Ed25519SubjectPublicKeyInfo.publicKey(der: spki) else { return false }
            return key.isValidSignature(signature, for: data)
        case .rs256, .ps256:
            guard let key = try? RSA.Signing.PublicKey(derRepresentation: spki) else { return false }
            return key.isValidSignature(signature, for: data, padding: algorithm == .rs256 ? .pkcs1v15 : .pss,
                                        hash: .sha256)
        }
    }
}
