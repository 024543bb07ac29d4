import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// Helpers of the `tpm`, `android-key` and `android-safetynet` verifiers, whose failures are `AttestationError`s.
extension AttestationVerifier {
    static func failure(_ error: AttestationError) -> WebAuthnError { .attestationCheckFailed(error) }

    /// The `alg` member as a COSE algorithm this verifier can check.
    func statementAlgorithm(_ statement: CBOR, format: String) throws(WebAuthnError) -> COSEAlgorithm {
        guard let value = statement[text: "alg"]?.intValue else {
            throw Self.failure(.statementFieldMissing(format: format, field: "alg"))
        }
        guard let alg = COSEAlgorithm(rawValue: value) else {
            throw Self.failure(.unsupportedAlgorithm(format: format, algorithm: value))
        }
        return alg
    }

    func statementBytes(_ statement: CBOR, _ field: String, format: String) throws(WebAuthnError) -> Data {
        guard let value = statement[text: field]?.bytesValue else {
            throw Self.failure(.statementFieldMissing(format: format, field: field))
        }
        return value
    }

    /// `x5c` as certificates, each signed by the next.
    func certificateChain(_ x5c: CBOR?, format: String) throws(WebAuthnError) -> [Certificate] {
        guard let x5c else { throw Self.failure(.statementFieldMissing(format: format, field: "x5c")) }
        guard let items = x5c.arrayValue, !items.isEmpty, items.count <= 8 else {
            throw Self.failure(.certificateChainInvalid(format: format))
        }
        var chain: [Certificate] = []
        for item in items {
            guard let der = item.bytesValue, let certificate = try? Certificate(derRepresentation: der) else {
                throw Self.failure(.certificateChainInvalid(format: format))
            }
            chain.append(certificate)
        }
        try checkLinks(chain, format: format)
        return chain
    }

    func checkLinks(_ chain: [Certificate], format: String) throws(WebAuthnError) {
        guard Self.isLinked(chain) else { throw Self.failure(.certificateChainInvalid(format: format)) }
    }

    /// The AAGUID extension, when present, must be non-critical and name the authenticator data's AAGUID.
    func checkAAGUIDExtension(_ certificate: Certificate, authData: AuthenticatorData,
                              format: String) throws(WebAuthnError) {
        switch Self.aaguidExtensionProblem(certificate, authData: authData) {
        case .critical: throw Self.failure(.aaguidExtensionCritical(format: format))
        case .mismatch: throw Self.failure(.aaguidMismatch(format: format))
        case nil: return
        }
    }

    /// The hash a COSE signature algorithm uses (TPM `extraData`).
    static func hashAlgorithm(of algorithm: COSEAlgorithm) -> HashAlgorithm? {
        switch algorithm {
        case .es256, .rs256, .ps256: .sha256
        case .es384: .sha384
        case .edDSA: nil
        }
    }
}
