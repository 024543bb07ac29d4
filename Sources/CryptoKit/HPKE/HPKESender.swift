import Foundation
import LatchkeySupport

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension HPKE {
    /// The sending side of an HPKE context: made for a recipient's public key, it seals messages in order and exports
    /// secrets; send `encapsulatedKey` with the first message.
    @available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
    public struct Sender: Sendable {
        private var keySchedule: HPKEContext
        /// The encapsulated key (`enc`) the recipient needs to set up its context.
        public let encapsulatedKey: Data

        /// A secret both sides derive from the context (`Export`): `context` binds it to its use.
        public func exportSecret<Context: DataProtocol>(context: Context, outputByteCount: Int) throws -> SymmetricKey {
            try ContiguousBytesInput.with(context) { try keySchedule.export($0, outputByteCount: outputByteCount) }
        }

        /// Base mode: encrypts to `recipientKey`.
        public init<PK: HPKEDiffieHellmanPublicKey>(recipientKey: PK, ciphersuite: Ciphersuite, info: Data) throws {
            try self.init(mode: .base, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                          ephemeralKey: PK.EphemeralPrivateKey(), senderKey: PK.EphemeralPrivateKey?.none, psk: nil, pskID: nil)
        }

        /// PSK mode: encrypts to `recipientKey`, authenticated by a pre-shared key both sides hold.
        public init<PK: HPKEDiffieHellmanPublicKey>(recipientKey: PK, ciphersuite: Ciphersuite, info: Data,
                                                    presharedKey psk: SymmetricKey, presharedKeyIdentifier pskID: Data) throws {
            try self.init(mode: .psk, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                          ephemeralKey: PK.EphemeralPrivateKey(), senderKey: PK.EphemeralPrivateKey?.none, psk: psk, pskID: pskID)
        }

        /// Auth mode: encrypts to `recipientKey`, authenticated by the sender's key `authenticationKey`.
        public init<SK: HPKEDiffieHellmanPrivateKey>(recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data,
                                                     authenticatedBy authenticationKey: SK) throws {
            try self.init(mode: .auth, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                          ephemeralKey: SK.PublicKey.EphemeralPrivateKey(), senderKey: authenticationKey, psk: nil, pskID: nil)
        }

        /// Auth PSK mode: authenticated by the sender's key and by a pre-shared key.
        public init<SK: HPKEDiffieHellmanPrivateKey>(recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data,
                                                     authenticatedBy authenticationKey: SK, presharedKey psk: SymmetricKey,
                                                     presharedKeyIdentifier pskID: Data) throws {
            try self.init(mode: .authPSK, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                          ephemeralKey: SK.PublicKey.EphemeralPrivateKey(), senderKey: authenticationKey, psk: psk, pskID: pskID)
        }

        /// A sender with a given ephemeral key (deterministic: RFC 9180's test vectors fix it). Not Apple API: the
        /// package's tests use it; apps get a fresh ephemeral key from the initializers above.
        package init<SK: HPKEDiffieHellmanPrivateKey>(
            recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data, ephemeralKey: SK.PublicKey.EphemeralPrivateKey,
            authenticatedBy senderKey: SK?, presharedKey psk: SymmetricKey?, presharedKeyIdentifier pskID: Data?
        ) throws {
            let mode: HPKEMode = switch (senderKey != nil, psk != nil || pskID != nil) {
            case (false, false): .base
            case (false, true): .psk
            case (true, false): .auth
            case (true, true): .authPSK
            }
            try self.init(mode: mode, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                          ephemeralKey: ephemeralKey, senderKey: senderKey, psk: psk, pskID: pskID)
        }

        private init<SK: HPKEDiffieHellmanPrivateKey>(
            mode: HPKEMode, recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data,
            ephemeralKey: SK.PublicKey.EphemeralPrivateKey, senderKey: SK?, psk: SymmetricKey?, pskID: Data?
        ) throws {
            let encapsulation = try DHKEM.encapsulate(to: recipientKey, kem: ciphersuite.kem, ephemeral: ephemeralKey,
                                                      senderKey: senderKey)
            keySchedule = try HPKEContext(mode: mode, sharedSecret: encapsulation.sharedSecret, info: info, psk: psk,
                                          pskID: pskID, ciphersuite: ciphersuite)
            encapsulatedKey = encapsulation.encapsulated
        }

        /// Seals the next message, authenticating `aad` too: ciphertext ‖ tag.
        public mutating func seal<M: DataProtocol, AD: DataProtocol>(_ msg: M, authenticating aad: AD) throws -> Data {
            try ContiguousBytesInput.with(msg) { message in
                try ContiguousBytesInput.with(aad) { try keySchedule.seal(message, aad: $0) }
            }
        }

        /// Seals the next message: ciphertext ‖ tag.
        public mutating func seal<M: DataProtocol>(_ msg: M) throws -> Data {
            try seal(msg, authenticating: Data())
        }
    }
}
