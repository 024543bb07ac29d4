import Foundation
import Testing
@testable import LatchkeyCrypto

/// Verification keys built straight from COSE coordinates (`COSEVerificationKey`): every WebAuthn algorithm verifies
/// what its private key signs, and coordinates that do not make a key of the stated algorithm and curve are refused.
@Suite struct COSEVerificationKeyTests {
    let message = Data("authenticatorData || SHA-256(clientDataJSON)".utf8)

    static func ec2(_ key: P256.Signing.PublicKey) -> COSEKey {
        let raw = key.rawRepresentation
        return .ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32))
    }

    @Test func everyAlgorithmVerifiesWhatItsKeySigns() throws {
        let p256 = P256.Signing.PrivateKey()
        let es256 = try COSEVerificationKey(Self.ec2(p256.publicKey))
        #expect(es256.algorithm == .es256)
        #expect(es256.isValidSignature(try p256.signature(for: message).derRepresentation, for: message))
        #expect(!es256.isValidSignature(try p256.signature(for: message).derRepresentation, for: message.dropLast()))
        #expect(!es256.isValidSignature(try p256.signature(for: message).rawRepresentation, for: message))

        let p384 = P384.Signing.PrivateKey()
        let raw384 = p384.publicKey.rawRepresentation
        let es384 = try COSEVerificationKey(.ec2(algorithm: .es384, curve: .p384, x: raw384.prefix(48), y: raw384.suffix(48)))
        #expect(es384.isValidSignature(try p384.signature(for: message).derRepresentation, for: message))

        let ed = Curve25519.Signing.PrivateKey()
        let edDSA = try COSEVerificationKey(.okp(algorithm: .edDSA, curve: .ed25519, x: ed.publicKey.rawRepresentation))
        #expect(edDSA.isValidSignature(try ed.signature(for: message), for: message))
        #expect(!edDSA.isValidSignature(try ed.signature(for: message), for: message + [0]))

        let rsa = try TestKeys.rsa()
        for (algorithm, padding) in [(COSEAlgorithm.rs256, RSA.Signing.Padding.pkcs1v15), (.ps256, .pss)] {
            let key = try COSEVerificationKey(.rsa(algorithm: algorithm, modulus: rsa.publicKey.modulus,
                                                   exponent: rsa.publicKey.exponent))
            let signature = try rsa.signature(for: message, padding: padding, hash: .sha256)
            #expect(key.isValidSignature(signature, for: message))
            #expect(!key.isValidSignature(signature, for: message.dropFirst()))
        }
        // The convenience on COSEKey itself builds the same key.
        #expect(Self.ec2(p256.publicKey).isValidSignature(try p256.signature(for: message).derRepresentation, for: message))
    }

    @Test func pointsOffTheCurveAreRefused() throws {
        var raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        raw[raw.startIndex + 63] ^= 0x01
        #expect(throws: CryptoError.self) {
            try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32)))
        }
        var raw384 = P384.Signing.PrivateKey().publicKey.rawRepresentation
        raw384[raw384.startIndex + 10] ^= 0x40
        #expect(throws: CryptoError.self) {
            try COSEVerificationKey(.ec2(algorithm: .es384, curve: .p384, x: raw384.prefix(48), y: raw384.suffix(48)))
        }
        // (0, 0) and all-ones coordinates (each ≥ p or off the curve).
        #expect(throws: CryptoError.self) {
            try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: Data(count: 32), y: Data(count: 32)))
        }
        #expect(throws: CryptoError.self) {
            try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: Data(repeating: 0xff, count: 32),
                                         y: Data(repeating: 0xff, count: 32)))
        }
        // x written as p for the point (0, y) on P-256: a coordinate ≥ p is refused, not reduced.
        let y = try #require(Data(hexString: "66485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4"))
        let p = try #require(Data(hexString: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"))
        #expect(try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: Data(count: 32), y: y)).algorithm == .es256)
        #expect(throws: CryptoError.self) { try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: p, y: y)) }
    }

    @Test func coordinatesOfTheWrongSizeAreRefused() throws {
        let raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        // 31 + 33 bytes: x‖y has the length of a P-256 point, the coordinates do not.
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(31), y: raw.suffix(33)))
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 33)) {
            try COSEVerificationKey(.ec2(algorithm: .es256, curve: .p256, x: Data([0]) + raw.prefix(32), y: raw.suffix(32)))
        }
        // A P-256 point given as P-384.
        #expect(throws: CryptoError.invalidKeySize(expected: 48, actual: 32)) {
            try COSEVerificationKey(.ec2(algorithm: .es384, curve: .p384, x: raw.prefix(32), y: raw.suffix(32)))
        }
        let ed = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation
        for x in [ed.dropLast(), ed + [0], Data()] {
            #expect(throws: CryptoError.self) { try COSEVerificationKey(.okp(algorithm: .edDSA, curve: .ed25519, x: x)) }
        }
    }

    @Test func algorithmCurveAndKeyTypeMustAgree() throws {
        let raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        let x = raw.prefix(32), y = raw.suffix(32)
        for (algorithm, curve) in [(COSEAlgorithm.es256, COSECurve.p384), (.es384, .p256), (.edDSA, .p256), (.rs256, .p256),
                                   (.es256, .ed25519)] {
            #expect(throws: CryptoError.self) { try COSEVerificationKey(.ec2(algorithm: algorithm, curve: curve, x: x, y: y)) }
        }
        let ed = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation
        for (algorithm, curve) in [(COSEAlgorithm.es256, COSECurve.ed25519), (.edDSA, .p256)] {
            #expect(throws: CryptoError.self) { try COSEVerificationKey(.okp(algorithm: algorithm, curve: curve, x: ed)) }
        }
        let rsa = try TestKeys.rsa().publicKey
        for algorithm in [COSEAlgorithm.es256, .es384, .edDSA] {
            #expect(throws: CryptoError.self) {
                try COSEVerificationKey(.rsa(algorithm: algorithm, modulus: rsa.modulus, exponent: rsa.exponent))
            }
        }
        // And a map whose kty, alg and crv disagree does not even parse.
        let mismatched = CBOR.map([.int(1): .int(2), .int(3): .int(-8), .int(-1): .int(1), .int(-2): .byteString(x),
                                   .int(-3): .byteString(y)])
        #expect(throws: CryptoError.self) { try COSEKey(cbor: mismatched) }
        let okpOnP256 = CBOR.map([.int(1): .int(1), .int(3): .int(-8), .int(-1): .int(1), .int(-2): .byteString(ed)])
        #expect(throws: CryptoError.self) { try COSEKey(cbor: okpOnP256) }
    }

    @Test func weakOrMalformedRSAKeysAreRefused() throws {
        let rsa = try TestKeys.rsa().publicKey
        var n1024 = Data(repeating: 0xc3, count: 128)
        n1024[127] = 0x01
        let refused: [(Data, Data)] = [
            (n1024, Data([1, 0, 1])),           // 1024 bits
            (rsa.modulus, Data([1])),           // e = 1
            (rsa.modulus, Data([1, 0, 0])),     // even e
            (rsa.modulus, Data()),              // no e
            (Data(), Data([1, 0, 1])),          // no n
            (rsa.modulus.dropLast() + [0x02], rsa.exponent), // even n
        ]
        for (n, e) in refused {
            #expect(throws: CryptoError.self) { try COSEVerificationKey(.rsa(algorithm: .rs256, modulus: n, exponent: e)) }
        }
        // Leading zero bytes are not part of the number.
        #expect(try COSEVerificationKey(.rsa(algorithm: .rs256, modulus: Data([0]) + rsa.modulus, exponent: rsa.exponent))
            .algorithm == .rs256)
    }
}
