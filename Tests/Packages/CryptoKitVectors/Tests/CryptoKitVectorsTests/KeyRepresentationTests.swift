// Every key representation of the NIST curves round-trips (raw, x9.63, compact, compressed, DER, PEM) and reads the
// known encodings of a published key: the RFC 6979 A.2.5–A.2.7 keys, in the RFC 5915 / SEC 1 "EC PRIVATE KEY", PKCS#8
// "PRIVATE KEY" and SubjectPublicKeyInfo "PUBLIC KEY" forms OpenSSL writes (see NISTCurveKeys.swift). CryptoKit writes
// PKCS#8 and SubjectPublicKeyInfo, so those two are compared byte for byte and character for character.
import CryptoKit
import Foundation
import Testing

@Suite("NIST key representations")
struct KeyRepresentationTests {
    static func check<K: NISTPrivateKeyUnderTest>(_: K.Type, _ known: KnownNISTKey) throws {
        let scalar = Data(hex: known.d)
        let key = try K(rawRepresentation: scalar)
        #expect(key.rawRepresentation == scalar)
        #expect(key.x963Representation == known.x963Public + scalar)
        #expect(key.derRepresentation == der(ofPEM: known.pkcs8PEM), "\(known.name): PKCS#8 DER")
        #expect(key.pemRepresentation == known.pkcs8PEM, "\(known.name): PKCS#8 PEM")

        // Every private encoding reads back to the same key.
        for (label, copy) in [("x963", try K(x963Representation: known.x963Public + scalar)),
                              ("SEC1 PEM", try K(pemRepresentation: known.sec1PEM)),
                              ("SEC1 DER", try K(derRepresentation: der(ofPEM: known.sec1PEM))),
                              ("PKCS#8 PEM", try K(pemRepresentation: known.pkcs8PEM)),
                              ("PKCS#8 DER", try K(derRepresentation: der(ofPEM: known.pkcs8PEM))),
                              ("own DER", try K(derRepresentation: key.derRepresentation)),
                              ("own DER as [UInt8]", try K(derRepresentation: Array(key.derRepresentation))),
                              ("own PEM", try K(pemRepresentation: key.pemRepresentation))] {
            #expect(copy.rawRepresentation == scalar, "\(known.name): \(label)")
        }

        let publicKey = key.publicKey
        #expect(publicKey.rawRepresentation == known.rawPublic)
        #expect(publicKey.x963Representation == known.x963Public)
        #expect(publicKey.compressedRepresentation == known.compressedPublic)
        #expect(publicKey.derRepresentation == der(ofPEM: known.spkiPEM), "\(known.name): SPKI DER")
        #expect(publicKey.pemRepresentation == known.spkiPEM, "\(known.name): SPKI PEM")
        for (label, copy) in [("raw", try K.PublicKey(rawRepresentation: known.rawPublic)),
                              ("x963", try K.PublicKey(x963Representation: known.x963Public)),
                              ("compressed", try K.PublicKey(compressedRepresentation: known.compressedPublic)),
                              ("SPKI DER", try K.PublicKey(derRepresentation: der(ofPEM: known.spkiPEM))),
                              ("SPKI PEM", try K.PublicKey(pemRepresentation: known.spkiPEM))] {
            #expect(copy.x963Representation == known.x963Public, "\(known.name): public \(label)")
        }

        // Compact representation (draft-jivsov-ecc-compact): x alone, present when y is the smaller root.
        let compactKey = K(compactRepresentable: true)
        let compact = try #require(compactKey.publicKey.compactRepresentation)
        #expect(compact == compactKey.publicKey.rawRepresentation.prefix(known.size))
        #expect(try K.PublicKey(compactRepresentation: compact).x963Representation == compactKey.publicKey.x963Representation)
        if let knownCompact = publicKey.compactRepresentation {
            #expect(try K.PublicKey(compactRepresentation: knownCompact).x963Representation == known.x963Public)
        } else {
            // The other root: reading x back gives the compact-representable point, which is −U.
            let other = try K.PublicKey(compactRepresentation: Data(hex: known.ux))
            #expect(other.rawRepresentation.prefix(known.size) == Data(hex: known.ux))
            #expect(other.rawRepresentation != known.rawPublic)
        }

        // Random keys round-trip through every representation.
        for _ in 0..<4 {
            let fresh = K(compactRepresentable: false)
            #expect(try K(rawRepresentation: fresh.rawRepresentation).x963Representation == fresh.x963Representation)
            #expect(try K(x963Representation: fresh.x963Representation).rawRepresentation == fresh.rawRepresentation)
            #expect(try K(derRepresentation: fresh.derRepresentation).rawRepresentation == fresh.rawRepresentation)
            #expect(try K(pemRepresentation: fresh.pemRepresentation).rawRepresentation == fresh.rawRepresentation)
            let pub = fresh.publicKey
            #expect(try K.PublicKey(rawRepresentation: pub.rawRepresentation).x963Representation == pub.x963Representation)
            #expect(try K.PublicKey(compressedRepresentation: pub.compressedRepresentation).x963Representation
                    == pub.x963Representation)
            #expect(try K.PublicKey(derRepresentation: pub.derRepresentation).x963Representation == pub.x963Representation)
            #expect(try K.PublicKey(pemRepresentation: pub.pemRepresentation).x963Representation == pub.x963Representation)
            #expect(pub.rawRepresentation.count == 2 * known.size)
            #expect(pub.compressedRepresentation.count == 1 + known.size)
            #expect(fresh.rawRepresentation.count == known.size)
        }
    }

    @Test("P-256 signing keys") func p256Signing() throws { try Self.check(P256.Signing.PrivateKey.self, .p256) }
    @Test("P-256 key-agreement keys") func p256Agreement() throws { try Self.check(P256.KeyAgreement.PrivateKey.self, .p256) }
    @Test("P-384 signing keys") func p384Signing() throws { try Self.check(P384.Signing.PrivateKey.self, .p384) }
    @Test("P-384 key-agreement keys") func p384Agreement() throws { try Self.check(P384.KeyAgreement.PrivateKey.self, .p384) }
    @Test("P-521 signing keys") func p521Signing() throws { try Self.check(P521.Signing.PrivateKey.self, .p521) }
    @Test("P-521 key-agreement keys") func p521Agreement() throws { try Self.check(P521.KeyAgreement.PrivateKey.self, .p521) }
}
