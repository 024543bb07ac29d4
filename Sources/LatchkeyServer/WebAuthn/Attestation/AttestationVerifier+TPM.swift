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
        let alg = try tpmSigningAlgorithm(statement)
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
        guard ConstantTime.equals(certInfo.extraData, alg.digest(authData.raw + clientDataHash)) else {
            throw Self.failure(.tpmExtraDataMismatch)
        }
        guard let nameHash = Self.tpmHash(pubArea.nameAlg) else {
            throw Self.failure(.tpmPubAreaMalformed("nameAlg \(pubArea.nameAlg)"))
        }
        var name = Data([UInt8(pubArea.nameAlg >> 8), UInt8(pubArea.nameAlg & 0xff)])
        name += nameHash(pubAreaBytes)
        guard certInfo.attestedName == name else { throw Self.failure(.tpmAttestedNameMismatch) }

        let chain = try certificateChain(statement[text: "x5c"], format: format)
        let aik = chain[0]
        guard alg.verify(signature: sig, of: certInfoBytes, spki: try aik.subjectPublicKeyInfo) else {
            throw Self.failure(.signatureInvalid(format: format))
        }
        try checkAIKCertificate(aik, authData: authData)
        return try trust(chain, format: format)
    }

    /// The statement's `alg`: a COSE algorithm LatchkeyCrypto verifies, or RS1 (-65535, RSASSA-PKCS1-v1_5 with
    /// SHA-1), which older Windows Hello TPMs sign with and which is accepted for `tpm` statements only.
    enum TPMSigningAlgorithm {
        case cose(COSEAlgorithm, HashAlgorithm)
        case rs1

        static let rs1Value = -65535

        func digest(_ data: Data) -> Data {
            switch self {
            case .cose(_, let hash): hash.hash(data)
            case .rs1: Data(Insecure.SHA1.hash(data: data))
            }
        }

        func verify(signature: Data, of data: Data, spki: Data) -> Bool {
            switch self {
            case .cose(let algorithm, _):
                return AttestationVerifier.verify(signature: signature, of: data, spki: spki, algorithm: algorithm)
            case .rs1:
                guard let key = try? RSA.Signing.PublicKey(derRepresentation: spki) else { return false }
                return key.isValidLegacySHA1Signature(signature, for: data)
            }
        }
    }

    func tpmSigningAlgorithm(_ statement: CBOR) throws(WebAuthnError) -> TPMSigningAlgorithm {
        if statement[text: "alg"]?.intValue == TPMSigningAlgorithm.rs1Value { return .rs1 }
        let alg = try statementAlgorithm(statement, format: "tpm")
        guard let hash = Self.hashAlgorithm(of: alg) else {
            throw Self.failure(.unsupportedAlgorithm(format: "tpm", algorithm: alg.rawValue))
        }
        return .cose(alg, hash)
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

    /// The digest of a pubArea `nameAlg`. SHA-1 names (TPMs whose name algorithm is SHA-1) are accepted: the
    /// name only ties certInfo to this pubArea, and the AIK's signature over certInfo is what is trusted.
    static func tpmHash(_ alg: UInt16) -> ((Data) -> Data)? {
        switch alg {
        case TPM.algSHA1: { Data(Insecure.SHA1.hash(data: $0)) }
        case TPM.algSHA256: HashAlgorithm.sha256.hash
        case TPM.algSHA384: HashAlgorithm.sha384.hash
        case TPM.algSHA512: HashAlgorithm.sha512.hash
        default: nil
        }
    }

    static func stripLeadingZeros(_ data: Data) -> Data { Data(data.drop { $0 == 0 }) }

    static func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }
}
