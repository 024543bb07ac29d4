import Foundation
import LatchkeySupport

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension HPKE {
    /// The receiving side of an HPKE context: made from the recipient's private key and the sender's encapsulated
    /// key, it opens the sender's messages in the order they were sealed and exports the same secrets.
    @available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
    public struct Recipient: Sendable {
        private var keySchedule: HPKEContext

        /// A secret both sides derive from the context (`Export`).
        public func exportSecret<Context: DataProtocol>(context: Context, outputByteCount: Int) throws -> SymmetricKey {
            try ContiguousBytesInput.with(context) { try keySchedule.export($0, outputByteCount: outputByteCount) }
        }

        /// Base mode.
        public init<SK: HPKEDiffieHellmanPrivateKey>(privateKey: SK, ciphersuite: Ciphersuite, info: Data,
                                                     encapsulatedKey: Data) throws {
            try self.init(mode: .base, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                          encapsulatedKey: encapsulatedKey, senderKey: nil, psk: nil, pskID: nil)
        }

        /// PSK mode.
        public init<SK: HPKEDiffieHellmanPrivateKey>(privateKey: SK, ciphersuite: Ciphersuite, info: Data,
                                                     encapsulatedKey: Data, presharedKey psk: SymmetricKey,
                                                     presharedKeyIdentifier pskID: Data) throws {
            try self.init(mode: .psk, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                          encapsulatedKey: encapsulatedKey, senderKey: nil, psk: psk, pskID: pskID)
        }

        /// Auth mode: the messages must come from the holder of `authenticationKey`'s private key.
        public init<SK: HPKEDiffieHellmanPrivateKey>(privateKey: SK, ciphersuite: Ciphersuite, info: Data,
                                                     encapsulatedKey: Data, authenticatedBy authenticationKey: SK.PublicKey) throws {
            try self.init(mode: .auth, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                          encapsulatedKey: encapsulatedKey, senderKey: authenticationKey, psk: nil, pskID: nil)
        }

        /// Auth PSK mode.
        public init<SK: HPKEDiffieHellmanPrivateKey>(privateKey: SK, ciphersuite: Ciphersuite, info: Data,
                                                     encapsulatedKey: Data, authenticatedBy authenticationKey: SK.PublicKey,
                                                     presharedKey psk: SymmetricKey, presharedKeyIdentifier pskID: Data) throws {
            try self.init(mode: .authPSK, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                          encapsulatedKey: encapsulatedKey, senderKey: authenticationKey, psk: psk, pskID: pskID)
        }

        private init<SK: HPKEDiffieHellmanPrivateKey>(
            mode: HPKEMode, privateKey: SK, ciphersuite: Ciphersuite, info: Data, encapsulatedKey: Data,
            senderKey: SK.PublicKey?, psk: SymmetricKey?, pskID: Data?
        ) throws {
            let sharedSecret = try DHKEM.decapsulate(encapsulatedKey, with: privateKey, kem: ciphersuite.kem,
                                                     senderKey: senderKey)
            keySchedule = try HPKEContext(mode: mode, sharedSecret: sharedSecret, info: info, psk: psk, pskID: pskID,
                                          ciphersuite: ciphersuite)
        }

        /// Opens the next message (ciphertext ‖ tag), checking `aad` too.
        public mutating func open<C: DataProtocol, AD: DataProtocol>(_ ciphertext: C, authenticating aad: AD) throws -> Data {
            try ContiguousBytesInput.with(ciphertext) { sealed in
                try ContiguousBytesInput.with(aad) { try keySchedule.open(sealed, aad: $0) }
            }
        }

        /// Opens the next message (ciphertext ‖ tag).
        public mutating func open<C: DataProtocol>(_ ciphertext: C) throws -> Data {
            try open(ciphertext, authenticating: Data())
        }
    }
}
