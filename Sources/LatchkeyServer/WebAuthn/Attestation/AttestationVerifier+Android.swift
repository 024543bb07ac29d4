import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

extension AttestationVerifier {
    /// Android Key Attestation's KeyDescription extension.
    static let androidKeyDescriptionOID = "1.3.6.1.4.1.11129.2.1.17"
    // AuthorizationList tags and values (Keymaster).
    static let kmTagPurpose: UInt32 = 1, kmTagAllApplications: UInt32 = 600, kmTagOrigin: UInt32 = 702
    static let kmOriginGenerated: Int64 = 0, kmPurposeSign: Int64 = 2
    static let safetyNetHostname = "attest.android.com"

    // §8.4
    func verifyAndroidKey(_ statement: CBOR, authData: AuthenticatorData, credentialKey: COSEKey,
                          clientDataHash: Data) throws -> AttestationTrust {
        let format = "android-key"
        let alg = try statementAlgorithm(statement, format: format)
        let sig = try statementBytes(statement, "sig", format: format)
        let chain = try certificateChain(statement[text: "x5c"], format: format)
        let leaf = chain[0]
        let leafKey = try leaf.subjectPublicKeyInfo
        guard Self.verify(signature: sig, of: authData.raw + clientDataHash, spki: leafKey, algorithm: alg) else {
            throw Self.failure(.signatureInvalid(format: format))
        }
        guard let credentialSPKI = try? credentialKey.subjectPublicKeyInfo(), credentialSPKI == leafKey else {
            throw Self.failure(.credentialKeyMismatch(format: format))
        }
        guard let value = leaf.extensionValue(oid: Self.androidKeyDescriptionOID) else {
            throw Self.failure(.androidKeyExtensionMissing)
        }
        let description = try AndroidKeyDescription(value)
        guard ConstantTime.equals(description.attestationChallenge, clientDataHash) else {
            throw Self.failure(.androidKeyChallengeMismatch)
        }
        guard !description.softwareEnforced.allApplications, !description.teeEnforced.allApplications else {
            throw Self.failure(.androidKeyAllApplicationsPresent)
        }
        let options = configuration.attestationOptions
        let lists = options.androidKeyRequiresTrustedExecutionEnvironment
            ? [description.teeEnforced] : [description.teeEnforced, description.softwareEnforced]
        let origins = lists.compactMap(\.origin)
        let emptyLists = origins.isEmpty && lists.allSatisfy { $0.purposes.isEmpty }
        if !(emptyLists && options.androidKeyAcceptsEmptyAuthorizationLists) {
            guard !origins.isEmpty, origins.allSatisfy({ $0 == Self.kmOriginGenerated }) else {
                throw Self.failure(.androidKeyOriginInvalid)
            }
            guard lists.contains(where: { $0.purposes.contains(Self.kmPurposeSign) }) else {
                throw Self.failure(.androidKeyPurposeInvalid)
            }
        }
        return try trust(chain, format: format)
    }

    // §8.5
    func verifyAndroidSafetyNet(_ statement: CBOR, authData: AuthenticatorData,
                                clientDataHash: Data) throws -> AttestationTrust {
        let format = "android-safetynet"
        guard let ver = statement[text: "ver"]?.textValue else {
            throw Self.failure(.statementFieldMissing(format: format, field: "ver"))
        }
        guard !ver.isEmpty else { throw Self.failure(.safetyNetVersionMissing) }
        let response = try statementBytes(statement, "response", format: format)
        let jws: JWS
        do { jws = try JWS(compactSerialization: String(decoding: response, as: UTF8.self)) } catch {
            throw Self.failure(.safetyNetResponseMalformed("not a compact JWS"))
        }
        guard let x5c = jws.header["x5c"]?.arrayValue, !x5c.isEmpty, x5c.count <= 8 else {
            throw Self.failure(.safetyNetResponseMalformed("x5c header missing"))
        }
        var chain: [Certificate] = []
        for item in x5c {
            guard let text = item.stringValue, let der = Data(base64Encoded: text),
                  let certificate = try? Certificate(derRepresentation: der) else {
                throw Self.failure(.certificateChainInvalid(format: format))
            }
            chain.append(certificate)
        }
        try checkLinks(chain, format: format)
        let leaf = chain[0]
        guard leaf.matchesHostname(Self.safetyNetHostname) else { throw Self.failure(.safetyNetHostnameMismatch) }
        let spki = try leaf.subjectPublicKeyInfo
        let key: JWSVerificationKey
        if let rsa = try? RSA.Signing.PublicKey(derRepresentation: spki) {
            key = .rsa(rsa)
        } else if let p256 = try? P256.Signing.PublicKey(derRepresentation: spki) {
            key = .p256(p256)
        } else {
            throw Self.failure(.signatureInvalid(format: format))
        }
        do { try jws.verify(using: key, allowedAlgorithms: [.RS256, .PS256, .ES256]) } catch {
            throw Self.failure(.signatureInvalid(format: format))
        }
        guard let payload = try? JSONDecoder().decode(JSONValue.self, from: jws.payload), payload.objectValue != nil else {
            throw Self.failure(.safetyNetResponseMalformed("payload is not a JSON object"))
        }
        let nonce = Data(SHA256.hash(data: authData.raw + clientDataHash)).base64EncodedString()
        guard payload["nonce"]?.stringValue == nonce else { throw Self.failure(.safetyNetNonceMismatch) }
        guard payload["ctsProfileMatch"]?.boolValue == true else { throw Self.failure(.safetyNetCTSProfileMismatch) }
        guard let milliseconds = payload["timestampMs"]?.intValue else {
            throw Self.failure(.safetyNetTimestampOutOfRange)
        }
        let timestamp = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        let options = configuration.attestationOptions
        guard timestamp <= now.addingTimeInterval(options.safetyNetMaximumFutureSkew),
              timestamp >= now.addingTimeInterval(-options.safetyNetMaximumAge) else {
            throw Self.failure(.safetyNetTimestampOutOfRange)
        }
        return try trust(chain, format: format)
    }
}

/// The parts of Android's KeyDescription (key attestation extension) WebAuthn §8.4 checks:
/// `SEQUENCE { attestationVersion, attestationSecurityLevel, keymasterVersion, keymasterSecurityLevel,
/// attestationChallenge OCTET STRING, uniqueId OCTET STRING, softwareEnforced, teeEnforced AuthorizationList }`.
struct AndroidKeyDescription {
    struct AuthorizationList {
        var purposes: [Int64] = []
        var origin: Int64?
        var allApplications = false

        init(_ element: DERElement) throws(WebAuthnError) {
            guard element.isUniversal(DERElement.sequence) else { throw AndroidKeyDescription.malformed("authorization list") }
            for entry in element.children where entry.tagClass == .contextSpecific {
                switch entry.tagNumber {
                case AttestationVerifier.kmTagPurpose:
                    guard let set = entry.children.first, set.isUniversal(DERElement.set) else {
                        throw AndroidKeyDescription.malformed("purpose")
                    }
                    for item in set.children {
                        guard let value = item.smallIntegerValue else { throw AndroidKeyDescription.malformed("purpose") }
                        purposes.append(value)
                    }
                case AttestationVerifier.kmTagAllApplications:
                    allApplications = true
                case AttestationVerifier.kmTagOrigin:
                    guard entry.children.count == 1, let value = entry.children[0].smallIntegerValue else {
                        throw AndroidKeyDescription.malformed("origin")
                    }
                    origin = value
                default:
                    continue
                }
            }
        }
    }

    var attestationChallenge: Data
    var softwareEnforced: AuthorizationList
    var teeEnforced: AuthorizationList

    init(_ value: Data) throws(WebAuthnError) {
        let root: DERElement
        // Read as BER's definite-length forms: some keystore firmware writes non-minimal lengths here (the
        // certificate around it is signed by the keystore; what counts is that the reading is unambiguous).
        do { root = try DERReader.parse(value, requireMinimalEncoding: false) } catch { throw Self.malformed("not DER") }
        guard root.isUniversal(DERElement.sequence), root.children.count >= 8 else { throw Self.malformed("KeyDescription") }
        guard let challenge = root.children[4].octetStringValue else { throw Self.malformed("attestationChallenge") }
        attestationChallenge = challenge
        softwareEnforced = try AuthorizationList(root.children[6])
        teeEnforced = try AuthorizationList(root.children[7])
    }

    static func malformed(_ what: String) -> WebAuthnError {
        AttestationVerifier.failure(.androidKeyDescriptionMalformed(what))
    }
}
