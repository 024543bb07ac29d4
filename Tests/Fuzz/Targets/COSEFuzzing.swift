import Foundation
import LatchkeyCrypto

/// COSE_Key decode. Property: a key that parses encodes to a COSE_Key that parses to the same key; using
/// it (SubjectPublicKeyInfo, signature check) never traps.
enum COSEFuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        guard let key = try? COSEKey(encoded: data) else { return }
        let again: COSEKey
        do { again = try COSEKey(encoded: key.encoded) } catch {
            throw FuzzPropertyViolation(.cose, "the encoding of a parsed key is refused: \(error)")
        }
        try require(again == key, .cose, "encode → decode gives another key")
        _ = try? key.subjectPublicKeyInfo()
        _ = key.isValidSignature(Data(repeating: 0x30, count: 8), for: data)
    }

    static func seeds() -> [Data] {
        var seeds: [Data] = []
        do { let key = P256.Signing.PrivateKey()
            let raw = key.publicKey.rawRepresentation
            seeds.append(COSEKey.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32)).encoded)
        }
        do { let key = P384.Signing.PrivateKey()
            let raw = key.publicKey.rawRepresentation
            seeds.append(COSEKey.ec2(algorithm: .es384, curve: .p384, x: raw.prefix(48), y: raw.suffix(48)).encoded)
        }
        do { let key = Curve25519.Signing.PrivateKey()
            seeds.append(COSEKey.okp(algorithm: .edDSA, curve: .ed25519, x: key.publicKey.rawRepresentation).encoded)
        }
        if let key = try? RSA.Signing.PrivateKey(keySize: 2048) {
            seeds.append(COSEKey.rsa(algorithm: .rs256, modulus: key.publicKey.modulus, exponent: key.publicKey.exponent).encoded)
        }
        return seeds
    }
}
