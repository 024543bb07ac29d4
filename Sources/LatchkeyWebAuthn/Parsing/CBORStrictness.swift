import Foundation
import LatchkeyCrypto

/// How strictly the CBOR of a registration or an assertion is read.
///
/// CTAP2 (§8, "CTAP2 canonical CBOR encoding form") requires an authenticator to write its output in canonical
/// form: shortest integer and length heads, map keys sorted, no indefinite lengths, no duplicate keys. What the
/// relying party receives is made of two structures with different authors:
/// - the authenticator data (its attested credential public key and its extensions) is the authenticator's own
///   bytes, passed through unchanged by the browser and covered by the signatures;
/// - the attestation object (`{fmt, attStmt, authData}`) is assembled by the client platform (browser, OS),
///   which WebAuthn does not hold to CTAP2's encoding rules.
///
/// Every level refuses what is ambiguous — duplicate map keys (two readers could take different values) and
/// indefinite lengths. They differ in what they do with non-canonical but unambiguous encodings, which real
/// authenticators and platforms emit (unsorted COSE key parameters, longer-than-needed length heads).
public enum CBORStrictness: String, Sendable, Hashable, Codable, CaseIterable {
    /// The default: duplicate keys and indefinite lengths are refused everywhere; non-canonical key order and
    /// non-shortest heads are accepted everywhere, since deployed authenticators produce them.
    case compatible
    /// As `compatible` for the attestation object, but the authenticator data's CBOR (credential public key,
    /// extensions) must be CTAP2 canonical, as CTAP2 requires of the authenticator.
    case canonicalAuthenticatorData
    /// Both the attestation object and the authenticator data must be CTAP2 canonical.
    case canonical

    /// Whether the authenticator data's CBOR must be canonical.
    public var requiresCanonicalAuthenticatorData: Bool { self != .compatible }
    /// Whether the attestation object's CBOR must be canonical.
    public var requiresCanonicalAttestationObject: Bool { self == .canonical }
}
