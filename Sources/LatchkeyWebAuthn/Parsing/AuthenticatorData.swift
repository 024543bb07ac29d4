import Foundation
import LatchkeyCrypto

/// The authenticator data structure (WebAuthn §6.1), parsed strictly: every byte is accounted for.
public struct AuthenticatorData: Sendable, Hashable {
    /// The flags byte (§6.1, bit 0 UP, 2 UV, 3 BE, 4 BS, 6 AT, 7 ED).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// Attested credential data (present when the AT flag is set).
    public struct AttestedCredential: Sendable, Hashable {
        public var aaguid: Data
        public var credentialID: Data
        /// The credential public key as a COSE_Key, in the exact bytes the authenticator wrote.
        public var publicKeyCOSE: Data
        public var publicKey: CBOR
    }

    /// The raw bytes (signatures cover these exactly).
    public let raw: Data
    public let rpIDHash: Data
    public let flags: Flags
    public let signCount: UInt32
    public let attestedCredential: AttestedCredential?
    public let extensions: CBOR?

    /// Longest credential id WebAuthn allows (§5.1: at most 1023 bytes).
    public static let maxCredentialIDLength = 1023

    /// Parses authenticator data; with a `strictness` other than `.compatible` the credential public key and the
    /// extensions must be CTAP2 canonical CBOR.
    public init(_ raw: Data, strictness: CBORStrictness = .compatible) throws(WebAuthnError) {
        let bytes = [UInt8](raw)
        guard bytes.count >= 37 else { throw .malformedAuthenticatorData("shorter than 37 bytes") }
        self.raw = raw
        rpIDHash = Data(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        let decoder = CBORDecoder(limits: .init(maxInputBytes: 64 * 1024, maxDepth: 8, maxContainerCount: 64),
                                  requireCanonical: strictness.requiresCanonicalAuthenticatorData)

        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformedAuthenticatorData("attested credential data truncated") }
            let aaguid = Data(bytes[offset..<offset + 16])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength > 0, idLength <= Self.maxCredentialIDLength else {
                throw .malformedAuthenticatorData("credential id length \(idLength)")
            }
            guard bytes.count >= offset + idLength else { throw .malformedAuthenticatorData("credential id truncated") }
            let credentialID = Data(bytes[offset..<offset + idLength])
            offset += idLength
            let rest = Data(bytes[offset...])
            let key: CBOR, used: Int
            do { (key, used) = try decoder.decodePrefix(rest) } catch {
                throw .malformedAuthenticatorData("credential public key: \(error)")
            }
            guard key.mapEntries != nil else { throw .malformedAuthenticatorData("credential public key is not a map") }
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID,
                                                    publicKeyCOSE: Data(bytes[offset..<offset + used]), publicKey: key)
            offset += used
        } else {
            attestedCredential = nil
        }

        if flags.contains(.extensionData) {
            let rest = Data(bytes[offset...])
            let ext: CBOR, used: Int
            do { (ext, used) = try decoder.decodePrefix(rest) } catch {
                throw .malformedAuthenticatorData("extensions: \(error)")
            }
            guard ext.mapEntries != nil else { throw .malformedAuthenticatorData("extensions are not a map") }
            extensions = ext
            offset += used
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw .malformedAuthenticatorData("\(bytes.count - offset) trailing bytes")
        }
    }

    public var userPresent: Bool { flags.contains(.userPresent) }
    public var userVerified: Bool { flags.contains(.userVerified) }
    public var backupEligible: Bool { flags.contains(.backupEligible) }
    public var backedUp: Bool { flags.contains(.backedUp) }
}
