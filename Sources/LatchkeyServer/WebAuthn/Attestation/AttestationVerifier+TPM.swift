import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

extension AttestationVerifier {
    static let tcgManufacturerOID = "2.23.133.2.1", tcgModelOID = "2.23.133.2.2", tcgVersionOID = "2.23.133.2.3"
    static let tcgAIKCertificateOID = "2.23.133.8.3"

    // §8.3
    func verifyTPM(_ statement: CBOR, authData: AuthenticatorData, credentialKey: COSEKey,
                   clientDataHash: Data) throws -> AttestationTrust {
        let format = "tpm"
        guard let ver = statement[text: "ver"]?.textValue else {
            throw Self.failure(.statementFieldMissing(format: format, field: "ver"))
        }
        guard ver == "2.0" else { throw Self.failure(.tpmVersionUnsupported(ver)) }
        let alg = try statementAlgorithm(statement, format: format)
        guard let hash = Self.hashAlgorithm(of: alg) else {
            throw Self.failure(.unsupportedAlgorithm(format: format, algorithm: alg.rawValue))
        }
        let sig = try statementBytes(statement, "sig", format: format)
        let certInfoBytes = try statementBytes(statement, "certInfo", format: format)
        let pubAreaBytes = try statementBytes(statement, "pubArea", format: format)

        let pubArea: TPM.Public
        do { pubArea = try TPM.Public(pubAreaBytes) } catch { throw Self.failure(.tpmPubAreaMalformed(error.reason)) }
        guard Self.tpmKey(pubArea.key, matches: credentialKey) else {
            throw Self.failure(.credentialKeyMismatch(format: format))
        }
        let certInfo: TPM.Attest
        do { certInfo = try TPM.Attest(certInfoBytes) } catch { throw Self.failure(.tpmCertInfoMalformed(error.reason)) }
        guard certInfo.magic == TPM.generatedValue else { throw Self.failure(.tpmMagicInvalid) }
        guard certInfo.type == TPM.stAttestCertified else { throw Self.failure(.tpmTypeInvalid) }
        guard ConstantTime.equals(certInfo.extraData, hash.hash(authData.raw + clientDataHash)) else {
            throw Self.failure(.tpmExtraDataMismatch)
        }
        guard let nameHash = Self.tpmHash(pubArea.nameAlg) else {
            throw Self.failure(.tpmPubAreaMalformed("nameAlg \(pubArea.nameAlg)"))
        }
        var name = Data([UInt8(pubArea.nameAlg >> 8), UInt8(pubArea.nameAlg & 0xff)])
        name += nameHash.hash(pubAreaBytes)
        guard certInfo.attestedName == name else { throw Self.failure(.tpmAttestedNameMismatch) }

        let chain = try certificateChain(statement[text: "x5c"], format: format)
        let aik = chain[0]
        guard Self.verify(signature: sig, of: certInfoBytes, spki: try aik.subjectPublicKeyInfo, algorithm: alg) else {
            throw Self.failure(.signatureInvalid(format: format))
        }
        try checkAIKCertificate(aik, authData: authData)
        return try trust(chain, format: format)
    }

    /// §8.3.1 TPM attestation statement certificate requirements.
    func checkAIKCertificate(_ aik: Certificate, authData: AuthenticatorData) throws(WebAuthnError) {
        let format = "tpm"
        guard aik.version == 3 else { throw Self.failure(.certificateNotVersion3(format: format)) }
        guard aik.hasEmptySubject else { throw Self.failure(.tpmSubjectNotEmpty) }
        guard let attributes = aik.subjectAlternativeNameDirectoryAttributes else {
            throw Self.failure(.tpmSubjectAlternativeNameInvalid("missing"))
        }
        guard aik.isSubjectAlternativeNameCritical else {
            throw Self.failure(.tpmSubjectAlternativeNameInvalid("not critical"))
        }
        for (oid, label) in [(Self.tcgManufacturerOID, "tpmManufacturer"), (Self.tcgModelOID, "tpmModel"),
                             (Self.tcgVersionOID, "tpmVersion")]
        where !attributes.contains(where: { $0.oid == oid && !$0.value.isEmpty }) {
            throw Self.failure(.tpmSubjectAlternativeNameInvalid("\(label) missing"))
        }
        guard aik.extendedKeyUsageOIDs?.contains(Self.tcgAIKCertificateOID) == true else {
            throw Self.failure(.tpmExtendedKeyUsageMissing)
        }
        guard aik.basicConstraintsCA == false else { throw Self.failure(.certificateIsCA(format: format)) }
        try checkAAGUIDExtension(aik, authData: authData, format: format)
    }

    /// Whether the pubArea's key (parameters and unique) is the credential public key.
    static func tpmKey(_ key: TPM.Public.Key, matches credential: COSEKey) -> Bool {
        switch (key, credential) {
        case let (.rsa(modulus, exponent), .rsa(_, n, e)):
            return stripLeadingZeros(modulus) == stripLeadingZeros(n)
                && stripLeadingZeros(e) == stripLeadingZeros(bigEndian(exponent))
        case let (.ecc(curve, x, y), .ec2(_, crv, cx, cy)):
            let expected: UInt16 = switch crv {
            case .p256: TPM.eccNistP256
            case .p384: TPM.eccNistP384
            case .ed25519: 0
            }
            return curve == expected && x == cx && y == cy
        default:
            return false
        }
    }

    static func tpmHash(_ alg: UInt16) -> HashAlgorithm? {
        switch alg {
        case TPM.algSHA256: .sha256
        case TPM.algSHA384: .sha384
        case TPM.algSHA512: .sha512
        default: nil // SHA-1 names are not accepted.
        }
    }

    static func stripLeadingZeros(_ data: Data) -> Data { Data(data.drop { $0 == 0 }) }

    static func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }
}
