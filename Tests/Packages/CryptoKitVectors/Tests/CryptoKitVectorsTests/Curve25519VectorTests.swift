// Curve25519 against RFC 7748 (X25519: §5.2 the two function test vectors and the 1 and 1,000 iteration results;
// §6.1 the Alice/Bob key agreement) and RFC 8032 §7.1 (Ed25519 TEST 1, 2, 3: public key from the secret key, and the
// published signature verifies; CryptoKit may randomize its own signatures, so ours are verified, not compared).
import CryptoKit
import Foundation
import Testing

@Suite("Curve25519: RFC 7748 and RFC 8032")
struct Curve25519VectorTests {
    static func x25519(_ scalar: Data, _ u: Data) throws -> Data {
        let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        let point = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: u)
        return try key.sharedSecretFromKeyAgreement(with: point).withUnsafeBytes { Data($0) }
    }

    @Test("X25519 function (RFC 7748 §5.2)")
    func function() throws {
        #expect(try Self.x25519(Data(hex: "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
                                Data(hex: "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")).hex
                == "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552")
        #expect(try Self.x25519(Data(hex: "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d"),
                                Data(hex: "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493")).hex
                == "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957")
    }

    @Test("X25519 iterated 1 and 1,000 times (RFC 7748 §5.2)")
    func iterated() throws {
        var k = Data([9]) + Data(count: 31)
        var u = k
        for iteration in 1...1000 {
            (k, u) = (try Self.x25519(k, u), k)
            if iteration == 1 { #expect(k.hex == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079") }
        }
        #expect(k.hex == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    }

    @Test("Diffie-Hellman (RFC 7748 §6.1)")
    func diffieHellman() throws {
        let alice = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: Data(hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: Data(hex: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(alice.publicKey.rawRepresentation.hex == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(bob.publicKey.rawRepresentation.hex == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = Data(hex: "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        #expect(try alice.sharedSecretFromKeyAgreement(with: bob.publicKey) == shared)
        #expect(try bob.sharedSecretFromKeyAgreement(with: alice.publicKey) == shared)
        let bobFromBytes = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bob.publicKey.rawRepresentation)
        #expect(try alice.sharedSecretFromKeyAgreement(with: bobFromBytes) == shared)
        #expect(alice.rawRepresentation.hex == "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    }

    @Test("A small-order point gives no shared secret (RFC 7748 §6.1: the all-zero output is refused)")
    func smallOrder() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        let zeroPoint = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: Data(count: 32))
        #expect(throws: (any Error).self) { try key.sharedSecretFromKeyAgreement(with: zeroPoint) }
    }

    static let ed25519: [(Int, String, String, String, String)] = [
        (1, "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        (2, "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        (3, "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ]

    @Test("Ed25519 (RFC 8032 §7.1 TEST 1–3)")
    func ed25519Vectors() throws {
        for (number, secret, publicHex, messageHex, signatureHex) in Self.ed25519 {
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: Data(hex: secret))
            #expect(key.publicKey.rawRepresentation.hex == publicHex, "TEST \(number): public key")
            #expect(key.rawRepresentation.hex == secret)
            let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: Data(hex: publicHex))
            let message = Data(hex: messageHex), signature = Data(hex: signatureHex)
            #expect(publicKey.isValidSignature(signature, for: message), "TEST \(number): published signature")
            #expect(publicKey.isValidSignature(signature, for: split(message)))
            #expect(!publicKey.isValidSignature(signature, for: message + Data([0])))
            var tampered = signature
            tampered[number * 7] ^= 0x01
            #expect(!publicKey.isValidSignature(tampered, for: message))
            #expect(!publicKey.isValidSignature(signature.dropLast(), for: message))
            let mine = try key.signature(for: message)
            #expect(mine.count == 64)
            #expect(publicKey.isValidSignature(mine, for: message), "TEST \(number): our own signature")
        }
    }

    @Test("Raw keys round-trip; keys of the wrong size are refused")
    func representations() throws {
        let signing = Curve25519.Signing.PrivateKey()
        #expect(try Curve25519.Signing.PrivateKey(rawRepresentation: signing.rawRepresentation).publicKey.rawRepresentation
                == signing.publicKey.rawRepresentation)
        let agreement = Curve25519.KeyAgreement.PrivateKey()
        #expect(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: agreement.rawRepresentation).publicKey
            .rawRepresentation == agreement.publicKey.rawRepresentation)
        for size in [0, 31, 33, 64] {
            expectCryptoKitError(.incorrectKeySize) { try Curve25519.Signing.PrivateKey(rawRepresentation: Data(count: size)) }
            expectCryptoKitError(.incorrectKeySize) { try Curve25519.Signing.PublicKey(rawRepresentation: Data(count: size)) }
            expectCryptoKitError(.incorrectKeySize) {
                try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Data(count: size))
            }
            expectCryptoKitError(.incorrectKeySize) {
                try Curve25519.KeyAgreement.PublicKey(rawRepresentation: Data(count: size))
            }
        }
    }
}
