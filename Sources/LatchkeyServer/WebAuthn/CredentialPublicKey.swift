import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// A credential public key as the relying party verifies it: a COSE key of an algorithm LatchkeyCrypto verifies, or
/// an RS1 key (COSE -65535, RSASSA-PKCS1-v1_5 over SHA-1), which some older Windows Hello TPMs made and which is used
/// only with `WebAuthnConfiguration.allowRS1CredentialKeys`. RS1 stays out of LatchkeyCrypto's `COSEAlgorithm` on
/// purpose: SHA-1 is reachable there only as `LegacySHA1` and `isValidLegacySHA1Signature`.
enum CredentialPublicKey: Sendable, Hashable {
    case cose(COSEKey)
    case rs1(modulus: Data, exponent: Data)

    /// RS1's COSE algorithm identifier (the IANA COSE registry lists it for exactly this legacy use).
    static let rs1Algorithm = -65535

    /// Parses a COSE_Key map: `unsupportedAlgorithm` for an algorithm no key of ours has, `invalidPublicKey` for a
    /// key that does not hold together.
    init(cbor: CBOR) throws(WebAuthnError) {
        let algorithm = cbor[int: 3]?.intValue
        if algorithm == Self.rs1Algorithm, cbor[int: 1]?.intValue == 3 {
            guard let modulus = cbor[int: -1]?.bytesValue, let exponent = cbor[int: -2]?.bytesValue,
                  !modulus.isEmpty, !exponent.isEmpty else {
                throw .invalidPublicKey("COSE RSA key needs n and e")
            }
            self = .rs1(modulus: modulus, exponent: exponent)
            return
        }
        do { self = .cose(try COSEKey(cbor: cbor)) } catch {
            if case .unsupportedAlgorithm = error { throw .unsupportedAlgorithm(algorithm ?? 0) }
            throw .invalidPublicKey("\(error)")
        }
    }

    /// Parses the CBOR bytes of a COSE_Key (a stored credential's `publicKey`).
    init(encoded: Data) throws(WebAuthnError) {
        let item: CBOR
        do { item = try CBORDecoder(requireCanonical: false).decode(encoded) } catch {
            throw .invalidPublicKey("COSE key CBOR: \(error)")
        }
        try self.init(cbor: item)
    }

    /// The COSE algorithm identifier (`StoredCredential.algorithm`).
    var algorithm: Int {
        switch self {
        case .cose(let key): key.algorithm.rawValue
        case .rs1: Self.rs1Algorithm
        }
    }

    /// The key itself in LatchkeyCrypto's model, for comparing it with an attestation certificate's or a TPM pubArea's
    /// key (RS1's modulus and exponent as an RSA key; the algorithm plays no part in those comparisons).
    var keyMaterial: COSEKey {
        switch self {
        case .cose(let key): key
        case let .rs1(modulus, exponent): .rsa(algorithm: .rs256, modulus: modulus, exponent: exponent)
        }
    }
}

/// A credential key made ready to verify signatures with its own algorithm: the platform's key object built once from
/// the COSE coordinates (`COSEVerificationKey`: no DER on the way; an EC point must lie on its curve, an RSA key have
/// 2048–8192 bits), or RS1's RSA key. What `CredentialKeyCache` keeps for recently used credentials.
struct CredentialVerificationKey: Sendable {
    /// The key as parsed (its algorithm, and its material for comparisons with attestation certificates).
    let publicKey: CredentialPublicKey
    private let verifier: Verifier

    private enum Verifier: Sendable {
        case cose(COSEVerificationKey)
        case rs1(RSA.Signing.PublicKey)
    }

    /// `invalidPublicKey` for coordinates that do not make a key, `unsupportedAlgorithm` for an algorithm and curve
    /// that do not go together.
    init(_ publicKey: CredentialPublicKey) throws(WebAuthnError) {
        self.publicKey = publicKey
        do {
            switch publicKey {
            case .cose(let key): verifier = .cose(try COSEVerificationKey(key))
            case let .rs1(modulus, exponent): verifier = .rs1(try RSA.Signing.PublicKey(modulus: modulus, exponent: exponent))
            }
        } catch {
            if case .unsupportedAlgorithm = error { throw .unsupportedAlgorithm(publicKey.algorithm) }
            throw .invalidPublicKey("\(error)")
        }
    }

    /// The COSE algorithm identifier.
    var algorithm: Int { publicKey.algorithm }

    /// Verifies a WebAuthn signature with the key's own algorithm.
    func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        switch verifier {
        case .cose(let key): key.isValidSignature(signature, for: data)
        case .rs1(let key): key.isValidLegacySHA1Signature(signature, for: data)
        }
    }
}
