import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyCrypto

@Suite struct KeyFormatTests {
    /// RFC 7515 Appendix A.3 P-256 key.
    static let a3x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let a3y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let a3d = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"

    @Test func p256PrivateScalarDerivesThePublishedPublicKey() throws {
        let d = try #require(Data(base64URLEncoded: Self.a3d))
        let key = try P256.Signing.PrivateKey(rawRepresentation: d)
        let x = try #require(Data(base64URLEncoded: Self.a3x)), y = try #require(Data(base64URLEncoded: Self.a3y))
        #expect(key.publicKey.rawRepresentation == x + y)
        #expect(key.publicKey.x963Representation == Data([0x04]) + x + y)
        #expect(key.rawRepresentation == d)
    }

    @Test func p256RoundTripsThroughEveryFormat() throws {
        let key = P256.Signing.PrivateKey()
        let pub = key.publicKey
        #expect(try sameEncoding(P256.Signing.PublicKey(rawRepresentation: pub.rawRepresentation), pub))
        #expect(try sameEncoding(P256.Signing.PublicKey(x963Representation: pub.x963Representation), pub))
        #expect(try sameEncoding(P256.Signing.PublicKey(derRepresentation: pub.derRepresentation), pub))
        #expect(try sameEncoding(P256.Signing.PublicKey(pemRepresentation: pub.pemRepresentation), pub))
        #expect(pub.pemRepresentation.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let x = pub.rawRepresentation.prefix(32)
        let yOdd = pub.rawRepresentation.last.map { $0 & 1 == 1 } ?? false
        #expect(try sameEncoding(P256.Signing.PublicKey(compressedRepresentation: Data([yOdd ? 0x03 : 0x02]) + x), pub))

        let fromDER = try P256.Signing.PrivateKey(derRepresentation: key.derRepresentation)
        let fromPEM = try P256.Signing.PrivateKey(pemRepresentation: key.pemRepresentation)
        let fromRaw = try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation)
        for other in [fromDER, fromPEM, fromRaw] {
            #expect(sameEncoding(other.publicKey, pub))
            #expect(pub.isValidSignature(try other.signature(for: Data("m".utf8)), for: Data("m".utf8)))
        }
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    }

    @Test func p384RoundTripsThroughEveryFormat() throws {
        let key = P384.Signing.PrivateKey()
        let pub = key.publicKey
        #expect(pub.rawRepresentation.count == 96)
        #expect(try sameEncoding(P384.Signing.PublicKey(rawRepresentation: pub.rawRepresentation), pub))
        #expect(try sameEncoding(P384.Signing.PublicKey(derRepresentation: pub.derRepresentation), pub))
        #expect(try sameEncoding(P384.Signing.PublicKey(pemRepresentation: pub.pemRepresentation), pub))
        #expect(try sameEncoding(P384.Signing.PrivateKey(derRepresentation: key.derRepresentation).publicKey, pub))
        #expect(try sameEncoding(P384.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).publicKey, pub))
    }

    @Test func pointsOffTheCurveAreRejected() throws {
        var raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        raw[raw.startIndex + 63] ^= 0x01
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(rawRepresentation: raw) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(rawRepresentation: Data(count: 64)) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(rawRepresentation: Data(count: 65)) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(x963Representation: Data([0x05]) + raw) }
    }

    /// (0, y) lies on P-256 (y² = b has a root); the same point with x written as p (≡ 0 mod p) is not a valid
    /// encoding, nor is any coordinate ≥ p: the key is refused, not reduced.
    @Test func coordinatesOfAtLeastTheFieldPrimeAreRejected() throws {
        let y = try #require(Data(hexString: "66485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4"))
        let p = try #require(Data(hexString: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"))
        let key = try P256.Signing.PublicKey(rawRepresentation: Data(count: 32) + y)
        #expect(key.rawRepresentation == Data(count: 32) + y)
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(rawRepresentation: p + y) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(x963Representation: Data([0x04]) + p + y) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(rawRepresentation: Data(repeating: 0xff, count: 64)) }
    }

    /// Public keys are copies of one parameters-only key per curve: many threads making and using keys at once
    /// each get their own, whole and usable.
    @Test func publicKeysMadeOnManyThreadsAtOnceAreIndependent() async throws {
        let signers = (0..<4).map { _ in P256.Signing.PrivateKey() }
        let message = Data("concurrent".utf8)
        // Bytes cross to the threads (CryptoKit's keys and signatures are Sendable only from Apple's iOS 18.4 SDK).
        let signatures = try signers.map { try $0.signature(for: message).rawRepresentation }
        let points = signers.map(\.publicKey.rawRepresentation)
        let count = signers.count
        let p384 = P384.Signing.PrivateKey().publicKey.rawRepresentation
        let failures = await onThreads(8) { thread -> Int in
            var failed = 0
            for round in 0..<16 {
                let which = (thread + round) % count
                guard let key = try? P256.Signing.PublicKey(rawRepresentation: points[which]),
                      let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatures[which]),
                      let other = try? P256.Signing.ECDSASignature(rawRepresentation: signatures[(which + 1) % count]),
                      key.rawRepresentation == points[which], key.isValidSignature(signature, for: message),
                      !key.isValidSignature(other, for: message),
                      (try? P384.Signing.PublicKey(rawRepresentation: p384))?.rawRepresentation == p384
                else { failed += 1; continue }
            }
            return failed
        }
        #expect(failures.reduce(0, +) == 0)
    }

    @Test func scalarsOutOfRangeAreRejected() {
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: Data(count: 32)) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: Data(repeating: 0xff, count: 32)) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: Data(repeating: 1, count: 31)) }
    }

    @Test func wrongCurvesAndKeyTypesAreRejected() throws {
        let p384 = P384.Signing.PrivateKey()
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: p384.publicKey.derRepresentation) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(derRepresentation: p384.derRepresentation) }
        let ed = Curve25519.Signing.PrivateKey()
        let edSPKI = try Ed25519SubjectPublicKeyInfo.der(rawKey: ed.publicKey.rawRepresentation)
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: edSPKI) }
    }

    @Test func garbageDERAndPEMAreRejected() throws {
        let spki = P256.Signing.PrivateKey().publicKey.derRepresentation
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: Data()) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: Data("not der".utf8)) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: spki + Data([0])) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: spki.dropLast(3)) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(pemRepresentation: "") }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(pemRepresentation: "-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----\n") }
        let privatePEM = P256.Signing.PrivateKey().pemRepresentation
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(pemRepresentation: privatePEM) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(derRepresentation: Data(repeating: 0x30, count: 40)) }
    }

    @Test func pemBlocksWithOtherLabelsAreSkipped() throws {
        let key = P256.Signing.PrivateKey()
        let text = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + key.pemRepresentation
        #expect(try sameEncoding(P256.Signing.PrivateKey(pemRepresentation: text).publicKey, key.publicKey))
        let both = key.publicKey.pemRepresentation + "\n" + key.pemRepresentation  // CryptoKit ends a PEM at its END line
        #expect(try sameEncoding(P256.Signing.PrivateKey(pemRepresentation: both).publicKey, key.publicKey))
        #expect(try sameEncoding(P256.Signing.PublicKey(pemRepresentation: both), key.publicKey))
    }

    @Test func encryptedPEMIsNotAccepted() {
        let encrypted = """
        -----BEGIN EC PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF

        AAAA
        -----END EC PRIVATE KEY-----
        """
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(pemRepresentation: encrypted) }
    }
}
