import Foundation
import Testing
@testable import LatchkeyCrypto

@Suite struct RSATests {
    static var key: RSA.Signing.PrivateKey? { try? TestKeys.rsa() }
    let message = Data("RSA message".utf8)

    @Test(arguments: [RSA.Signing.Padding.pkcs1v15, .pss], [HashAlgorithm.sha256, .sha384, .sha512])
    func signVerifyRoundTrip(padding: RSA.Signing.Padding, hash: HashAlgorithm) throws {
        let key = try #require(Self.key)
        let signature = try key.signature(for: message, padding: padding, hash: hash)
        #expect(signature.count == 256)
        #expect(key.publicKey.isValidSignature(signature, for: message, padding: padding, hash: hash))
        #expect(!key.publicKey.isValidSignature(signature, for: message + Data([1]), padding: padding, hash: hash))
        let other: RSA.Signing.Padding = padding == .pss ? .pkcs1v15 : .pss
        #expect(!key.publicKey.isValidSignature(signature, for: message, padding: other, hash: hash))
        let otherHash: HashAlgorithm = hash == .sha256 ? .sha512 : .sha256
        #expect(!key.publicKey.isValidSignature(signature, for: message, padding: padding, hash: otherHash))
        var flipped = signature
        flipped[100] ^= 0x10
        #expect(!key.publicKey.isValidSignature(flipped, for: message, padding: padding, hash: hash))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: message, padding: padding, hash: hash))
    }

    @Test func pkcs1v15IsDeterministic() throws {
        let key = try #require(Self.key)
        #expect(try key.signature(for: message, padding: .pkcs1v15, hash: .sha256)
                == key.signature(for: message, padding: .pkcs1v15, hash: .sha256))
    }

    @Test func keyFormatsRoundTrip() throws {
        let key = try #require(Self.key)
        let pub = key.publicKey
        #expect(pub.keySizeInBits == 2048)
        #expect(pub.modulus.count == 256 && pub.exponent == Data([0x01, 0x00, 0x01]))
        #expect(try RSA.Signing.PublicKey(modulus: pub.modulus, exponent: pub.exponent) == pub)
        #expect(try RSA.Signing.PublicKey(modulus: Data([0, 0]) + pub.modulus, exponent: pub.exponent) == pub)
        #expect(try RSA.Signing.PublicKey(derRepresentation: pub.derRepresentation) == pub)
        #expect(try RSA.Signing.PublicKey(pemRepresentation: pub.pemRepresentation) == pub)
        // PKCS#1 RSAPublicKey is the BIT STRING payload of a 2048-bit SPKI (after a 24-byte prefix).
        let pkcs1 = pub.derRepresentation.dropFirst(24)
        #expect(try RSA.Signing.PublicKey(derRepresentation: Data(pkcs1)) == pub)
        #expect(try pub.pkcs1DERRepresentation == Data(pkcs1))
        let pkcs1PEM = "-----BEGIN RSA PUBLIC KEY-----\n" + Data(pkcs1).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END RSA PUBLIC KEY-----\n"
        #expect(try RSA.Signing.PublicKey(pemRepresentation: pkcs1PEM) == pub)
        let again = try RSA.Signing.PrivateKey(derRepresentation: key.derRepresentation)
        #expect(again.publicKey == pub)
        #expect(try RSA.Signing.PrivateKey(pemRepresentation: key.pemRepresentation).publicKey == pub)
        #expect(!key.description.contains(pub.modulus.hexString))
    }

    /// A key made from its modulus and exponent keeps them as given (no read-back from the backend's key), writes the
    /// SubjectPublicKeyInfo the backend itself writes, and verifies what the private key signs.
    @Test func keysFromModulusAndExponentMatchTheBackend() throws {
        let key = try #require(Self.key)
        let pub = try RSA.Signing.PublicKey(modulus: key.publicKey.modulus, exponent: key.publicKey.exponent)
        let backendModulus = try pub.key.modulus(), backendExponent = try pub.key.exponent()
        #expect(pub.modulus == backendModulus && pub.exponent == backendExponent)
        let backendSPKI = try pub.key.subjectPublicKeyInfo()
        #expect(pub.derRepresentation == backendSPKI)
        #expect(pub.derRepresentation == key.publicKey.derRepresentation)
        #expect(pub.keySizeInBits == 2048)
        let signature = try key.signature(for: message, padding: .pkcs1v15, hash: .sha256)
        #expect(pub.isValidSignature(signature, for: message, padding: .pkcs1v15, hash: .sha256))
        #expect(!pub.isValidSignature(signature, for: message + [0], padding: .pkcs1v15, hash: .sha256))
    }

    @Test func smallAndHugeKeysAreRejected() {
        var n1024 = Data(repeating: 0xc3, count: 128)
        n1024[127] = 0x01
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: n1024, exponent: Data([1, 0, 1])) }
        var n9000 = Data(repeating: 0xc3, count: 1125 + 8)
        n9000[n9000.count - 1] = 0x01
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: n9000, exponent: Data([1, 0, 1])) }
        // 2047 bits: 256 bytes whose first has its top bit clear.
        var n2047 = Data(repeating: 0xc3, count: 256)
        n2047[0] = 0x43
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: n2047, exponent: Data([1, 0, 1])) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: Data(count: 256), exponent: Data([1, 0, 1])) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PrivateKey(keySize: 1024) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PrivateKey(keySize: 16384) }
    }

    @Test func badExponentsAndGarbageAreRejected() throws {
        let key = try #require(Self.key)
        let n = key.publicKey.modulus
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: n, exponent: Data([1])) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: n, exponent: Data([2])) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(modulus: n, exponent: Data()) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(derRepresentation: Data(repeating: 0x30, count: 300)) }
        let ec = P256.Signing.PrivateKey()
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(derRepresentation: ec.publicKey.derRepresentation) }
    }
}
