import Foundation
import LatchkeyCrypto

/// An App Attest assertion (`DCAppAttestService.generateAssertion(_:clientDataHash:)`): a CBOR map of the ECDSA
/// signature (ASN.1 DER) and the authenticator data it covers.
///
/// The authenticator data of an assertion is 37 bytes: `SHA256(app ID)`, the flags and the key's counter. Devices set
/// the attested-credential-data flag (0x40) in it although no credential data follows, so it is read here by its
/// fixed layout, not as WebAuthn authenticator data (`AuthenticatorData`, which would expect the credential).
public struct AppAttestAssertion: Sendable, Hashable {
    /// The ECDSA P-256 signature (DER) over `SHA256(authenticatorData ‖ SHA256(clientData))`, hashed again by ES256.
    public var signature: Data
    /// The authenticator data, as signed (37 bytes).
    public var authenticatorData: Data

    /// Largest assertion accepted (an iPhone's is about 140 bytes).
    public static let maxSize = 1024
    /// The length of an assertion's authenticator data.
    public static let authenticatorDataLength = 37

    /// Parses an assertion: a CBOR map with the byte strings `signature` and `authenticatorData` (other members are
    /// ignored, as Apple's verifiers ignore them); duplicate keys and indefinite lengths are refused.
    public init(_ data: Data) throws(AppAttestError) {
        guard data.count <= Self.maxSize else { throw .malformedAssertion("longer than \(Self.maxSize) bytes") }
        let decoder = CBORDecoder(limits: .init(maxInputBytes: Self.maxSize, maxDepth: 4, maxContainerCount: 16),
                                  requireCanonical: false)
        let item: CBOR
        do { item = try decoder.decode(data) } catch { throw .malformedAssertion("CBOR: \(error)") }
        guard item.mapEntries != nil else { throw .malformedAssertion("not a CBOR map") }
        guard let signature = item[text: "signature"]?.bytesValue, !signature.isEmpty else {
            throw .malformedAssertion("signature missing")
        }
        guard let authenticatorData = item[text: "authenticatorData"]?.bytesValue else {
            throw .malformedAssertion("authenticatorData missing")
        }
        try self.init(signature: signature, authenticatorData: authenticatorData)
    }

    /// An assertion from its parts; the authenticator data must have the assertion's length.
    public init(signature: Data, authenticatorData: Data) throws(AppAttestError) {
        guard authenticatorData.count == Self.authenticatorDataLength else {
            throw .malformedAssertion("authenticatorData has \(authenticatorData.count) bytes, not \(Self.authenticatorDataLength)")
        }
        self.signature = signature
        self.authenticatorData = authenticatorData
    }

    /// SHA-256 of the app ID the key was made for (the RP ID hash).
    public var rpIDHash: Data { authenticatorData.prefix(32) }

    /// The key's counter: how many assertions it has made.
    public var counter: UInt32 { authenticatorData.dropFirst(33).prefix(4).reduce(0) { $0 << 8 | UInt32($1) } }

    /// The CBOR encoding a device sends.
    public var encoded: Data {
        CBOR.map(["signature": .byteString(signature), "authenticatorData": .byteString(authenticatorData)]).encoded
    }

    /// `SHA256(authenticatorData ‖ clientDataHash)`: what an attestation's nonce extension holds and what an
    /// assertion's signature covers (ES256 hashes it once more).
    public static func nonce(authenticatorData: Data, clientDataHash: Data) -> SHA256.Digest {
        var hasher = SHA256()
        hasher.update(data: authenticatorData)
        hasher.update(data: clientDataHash)
        return hasher.finalize()
    }
}
