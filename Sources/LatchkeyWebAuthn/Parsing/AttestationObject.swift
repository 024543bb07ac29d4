import Foundation
import LatchkeyCrypto

/// The attestation object (WebAuthn §6.5): `{fmt, attStmt, authData}` in CBOR.
public struct AttestationObject: Sendable, Hashable {
    public var format: String
    public var statement: CBOR
    public var authenticatorData: AuthenticatorData

    public static let maxSize = 64 * 1024

    /// Parses an attestation object; `strictness` decides whether non-canonical CBOR is accepted here and in
    /// the authenticator data it carries (duplicate keys and indefinite lengths are refused at every level).
    public init(_ data: Data, strictness: CBORStrictness = .compatible) throws(WebAuthnError) {
        let decoder = CBORDecoder(limits: .init(maxInputBytes: Self.maxSize, maxDepth: 8, maxContainerCount: 64),
                                  requireCanonical: strictness.requiresCanonicalAttestationObject)
        let item: CBOR
        do { item = try decoder.decode(data) } catch { throw .malformedAttestationObject("\(error)") }
        guard let fmt = item[text: "fmt"]?.textValue else { throw .malformedAttestationObject("fmt missing") }
        guard let stmt = item[text: "attStmt"], stmt.mapEntries != nil else {
            throw .malformedAttestationObject("attStmt missing")
        }
        guard let authData = item[text: "authData"]?.bytesValue else {
            throw .malformedAttestationObject("authData missing")
        }
        format = fmt
        statement = stmt
        authenticatorData = try AuthenticatorData(authData, strictness: strictness)
    }

    public init(format: String, statement: CBOR, authenticatorData: AuthenticatorData) {
        self.format = format
        self.statement = statement
        self.authenticatorData = authenticatorData
    }

    /// The CBOR encoding an authenticator would send.
    public var encoded: Data {
        CBOR.map(["fmt": .textString(format), "attStmt": statement,
                  "authData": .byteString(authenticatorData.raw)]).encoded
    }
}
