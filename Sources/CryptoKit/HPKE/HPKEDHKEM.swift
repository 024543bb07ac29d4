import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension HPKE {
    /// The Diffie-Hellman based KEMs of RFC 9180 §4.1 (`DHKEM(Group, KDF)`), over the key-agreement keys that conform
    /// to `HPKEDiffieHellmanPrivateKey`.
    @available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
    public enum DHKEM: Sendable {}
}

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension HPKE.DHKEM {
    /// `HPKE.Errors.inconsistentCiphersuiteAndKey` unless `kem` is the key's own.
    static func require(_ kem: HPKE.KEM, _ keysKEM: HPKE.KEM) throws {
        guard kem == keysKEM else { throw HPKE.Errors.inconsistentCiphersuiteAndKey }
    }

    /// `Encap(pkR)` (with `senderKey`: `AuthEncap(pkR, skS)`) with the ephemeral key `ephemeral`.
    static func encapsulate<SK: HPKEDiffieHellmanPrivateKey>(
        to recipientKey: SK.PublicKey, kem: HPKE.KEM, ephemeral: SK.PublicKey.EphemeralPrivateKey, senderKey: SK?
    ) throws -> KEM.EncapsulationResult {
        let encapsulated = try ephemeral.publicKey.hpkeRepresentation(kem: kem)
        var kemContext = encapsulated
        kemContext.append(try recipientKey.hpkeRepresentation(kem: kem))
        var agreements = [try ephemeral.sharedSecretFromKeyAgreement(with: recipientKey)]
        if let senderKey {
            agreements.append(try senderKey.sharedSecretFromKeyAgreement(with: recipientKey))
            kemContext.append(try senderKey.publicKey.hpkeRepresentation(kem: kem))
        }
        return KEM.EncapsulationResult(sharedSecret: try extractAndExpand(agreements, kemContext: kemContext, kem: kem),
                                       encapsulated: encapsulated)
    }

    /// `Decap(enc, skR)` (with `senderKey`: `AuthDecap(enc, skR, pkS)`).
    static func decapsulate<SK: HPKEDiffieHellmanPrivateKey>(
        _ encapsulated: Data, with recipientKey: SK, kem: HPKE.KEM, senderKey: SK.PublicKey?
    ) throws -> SymmetricKey {
        let ephemeralKey = try SK.PublicKey(encapsulated, kem: kem)
        var kemContext = encapsulated
        kemContext.append(try recipientKey.publicKey.hpkeRepresentation(kem: kem))
        var agreements = [try recipientKey.sharedSecretFromKeyAgreement(with: ephemeralKey)]
        if let senderKey {
            agreements.append(try recipientKey.sharedSecretFromKeyAgreement(with: senderKey))
            kemContext.append(try senderKey.hpkeRepresentation(kem: kem))
        }
        return try extractAndExpand(agreements, kemContext: kemContext, kem: kem)
    }

    /// `ExtractAndExpand(dh, kem_context)`: the Diffie-Hellman outputs, concatenated in a zeroing buffer, under the
    /// KEM's labels ("eae_prk", "shared_secret").
    static func extractAndExpand(_ agreements: [SharedSecret], kemContext: Data, kem: HPKE.KEM) throws -> SymmetricKey {
        let kdf = HPKELabeledKDF(suiteIdentifier: kem.suiteIdentifier, digest: kem.kdf.digest)
        let secret = try engine { () throws(CryptoError) -> SecretBytes in
            let prk = try SecretBytes(concatenating: agreements.map(\.secret)).withBytes { (dh) throws(CryptoError) in
                try kdf.extract(salt: UnsafeRawBufferPointer(start: nil, count: 0), label: "eae_prk", ikm: dh)
            }
            return try prk.withBytes { (prk) throws(CryptoError) in
                try ContiguousInput.with(kemContext) { (context) throws(CryptoError) in
                    try kdf.expand(prk: prk, label: "shared_secret", info: context, length: kem.sharedSecretByteCount)
                }
            }
        }
        return SymmetricKey(secret: secret)
    }
}

extension SecretBytes {
    /// The bytes of `parts`, one after another, in one zeroing allocation.
    convenience init(concatenating parts: [SecretBytes]) {
        self.init(uninitializedByteCount: parts.reduce(0) { $0 + $1.byteCount }) { out in
            var offset = 0
            for part in parts where part.byteCount > 0 {
                UnsafeMutableRawBufferPointer(rebasing: out[offset..<offset + part.byteCount]).copyMemory(from: part.bytes)
                offset += part.byteCount
            }
        }
    }
}
