// ECDSA P-256/P-384/P-521 against RFC 6979 appendix A.2.5–A.2.7: the published public key follows from the published
// private key, and the published signatures verify — as raw r||s and as DER — over the message and over its digest.
// RFC 6979 signatures are deterministic and CryptoKit's are randomized, so signatures made here are checked by
// verifying them (and by a second, different signature of the same message), not by comparing bytes.
import CryptoKit
import Foundation
import Testing

@Suite("ECDSA: RFC 6979 A.2.5–A.2.7")
struct ECDSAVectorTests {
    static func check<K: SigningPrivateKeyUnderTest>(_: K.Type, _ known: KnownNISTKey) throws {
        let key = try K(rawRepresentation: Data(hex: known.d))
        #expect(key.publicKey.x963Representation == known.x963Public, "\(known.name): U = xG")
        let publicKey = try K.PublicKey(x963Representation: known.x963Public)

        for (message, r, s) in known.signatures {
            let data = Data(message.utf8)
            let raw = Data(hex: r) + Data(hex: s)
            let signature = try K.PublicKey.Signature(rawRepresentation: raw)
            #expect(publicKey.isValidSignature(signature, for: data), "\(known.name) \"\(message)\"")
            #expect(publicKey.isValidSignature(signature, for: split(data)))
            #expect(publicKey.isValidSignature(signature, for: K.CurveHash.hash(data: data)))
            #expect(!publicKey.isValidSignature(signature, for: Data((message + ".").utf8)))

            // DER round trip of a published signature.
            let der = signature.derRepresentation
            #expect(try K.PublicKey.Signature(derRepresentation: der).rawRepresentation == raw)
            #expect(publicKey.isValidSignature(try K.PublicKey.Signature(derRepresentation: der), for: data))

            // A changed r or s no longer verifies.
            var tampered = raw
            tampered[tampered.count - 1] ^= 0x01
            #expect(!publicKey.isValidSignature(try K.PublicKey.Signature(rawRepresentation: tampered), for: data))
            tampered = raw
            tampered[known.size / 2] ^= 0x80
            #expect(!publicKey.isValidSignature(try K.PublicKey.Signature(rawRepresentation: tampered), for: data))

            // Our own signatures: randomized, valid for the published public key, over data and over a digest.
            let mine = try key.signature(for: data)
            let again = try key.signature(for: data)
            #expect(mine.rawRepresentation.count == 2 * known.size)
            #expect(mine.rawRepresentation != again.rawRepresentation, "ECDSA signatures are randomized")
            #expect(publicKey.isValidSignature(mine, for: data) && publicKey.isValidSignature(again, for: data))
            let overDigest = try key.signature(for: K.CurveHash.hash(data: data))
            #expect(publicKey.isValidSignature(overDigest, for: data))
            #expect(publicKey.isValidSignature(overDigest, for: K.CurveHash.hash(data: data)))
            #expect(try K.PublicKey.Signature(derRepresentation: mine.derRepresentation).rawRepresentation
                    == mine.rawRepresentation)
        }
    }

    @Test("P-256 / SHA-256 (A.2.5)") func p256() throws { try Self.check(P256.Signing.PrivateKey.self, .p256) }
    @Test("P-384 / SHA-384 (A.2.6)") func p384() throws { try Self.check(P384.Signing.PrivateKey.self, .p384) }
    @Test("P-521 / SHA-512 (A.2.7)") func p521() throws { try Self.check(P521.Signing.PrivateKey.self, .p521) }

    @Test("DER signatures: the exact ECDSA-Sig-Value encoding, strictly parsed")
    func derEncoding() throws {
        let known = KnownNISTKey.p256
        let (_, r, s) = known.signatures[1]  // "test": s starts with 0x01, r with 0xf1 (needs a 0x00 pad)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Data(hex: r) + Data(hex: s))
        let expected = Data(hex: "3045" + "022100" + r + "0220" + s)
        #expect(signature.derRepresentation == expected)
        // BER lengths, trailing bytes and truncation are not DER.
        #expect(throws: (any Error).self) {
            try P256.Signing.ECDSASignature(derRepresentation: Data(hex: "308145" + "022100" + r + "0220" + s))
        }
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: expected + Data([0])) }
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: expected.dropLast()) }
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: Data()) }
    }

    @Test("Raw signatures of the wrong size are refused")
    func rawSizes() {
        expectCryptoKitError(.incorrectParameterSize) {
            try P256.Signing.ECDSASignature(rawRepresentation: Data("hello".utf8))
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try P384.Signing.ECDSASignature(rawRepresentation: Data(count: 64))
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try P521.Signing.ECDSASignature(rawRepresentation: Data(count: 131))
        }
    }

    @Test("r = 0, s = 0 and r, s ≥ n never verify")
    func outOfRange() throws {
        let publicKey = try P256.Signing.PublicKey(x963Representation: KnownNISTKey.p256.x963Public)
        let n = Data(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let one = Data(count: 31) + Data([1])
        for raw in [Data(count: 64), one + Data(count: 32), Data(count: 32) + one, n + one, one + n,
                    Data(repeating: 0xff, count: 64)] {
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            #expect(!publicKey.isValidSignature(signature, for: Data("sample".utf8)))
        }
    }
}
