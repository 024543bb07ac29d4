import Foundation
import Testing
@testable import LatchkeyCrypto

@Suite struct JWKTests {
    @Test func rfc7638Thumbprint() throws {
        let jwk = try JOSEVectors.jwk(JOSEVectors.rfc7638JWK)
        #expect(try jwk.thumbprintString() == JOSEVectors.rfc7638Thumbprint)
        #expect(try jwk.thumbprint().count == 32)
        // Non-required members do not change it.
        var other = jwk
        other.kid = "something else"; other.alg = nil; other.use = "sig"
        #expect(try other.thumbprintString() == JOSEVectors.rfc7638Thumbprint)
    }

    @Test func rfc8037KeyAndThumbprint() throws {
        let jwk = try JOSEVectors.jwk(JOSEVectors.rfc8037PrivateJWK)
        #expect(try jwk.thumbprintString() == JOSEVectors.rfc8037Thumbprint)
        #expect(try jwk.publicJWK.thumbprintString() == JOSEVectors.rfc8037Thumbprint)
        guard case let .ed25519(key) = try jwk.signingKey else { Issue.record("not Ed25519"); return }
        #expect(key.publicKey.rawRepresentation.base64URLEncodedString() == jwk.x)
        guard case .ed25519 = try jwk.verificationKey else { Issue.record("not Ed25519"); return }
    }

    @Test func rfc7515A3KeyFromJWK() throws {
        let jwk = JWK(kty: "EC", crv: "P-256", x: JOSEVectors.a3x, y: JOSEVectors.a3y, d: JOSEVectors.a3d)
        guard case let .p256(priv) = try jwk.signingKey, case let .p256(pub) = try jwk.verificationKey else {
            Issue.record("not P-256"); return
        }
        #expect(sameEncoding(priv.publicKey, pub))
        #expect(JWK(p256: pub) == jwk.publicJWK)
    }

    @Test func publicKeysRoundTripThroughJSON() throws {
        let keys: [JWSVerificationKey] = [
            .p256(P256.Signing.PrivateKey().publicKey), .p384(P384.Signing.PrivateKey().publicKey),
            .ed25519(Curve25519.Signing.PrivateKey().publicKey), .rsa(try TestKeys.rsa().publicKey),
        ]
        for key in keys {
            var jwk = JWK(key, kid: "k1")
            jwk.use = "sig"; jwk.keyOps = ["verify"]
            let json = try JSONEncoder().encode(jwk)
            let back = try JSONDecoder().decode(JWK.self, from: json)
            #expect(back == jwk)
            #expect(try back.verificationKey == key)
            #expect(String(decoding: json, as: UTF8.self).contains("\"key_ops\""))
            #expect(!jwk.isPrivate)
        }
    }

    @Test func privateMemberIsNeverPrinted() throws {
        let key = P256.Signing.PrivateKey()
        let jwk = JWK(p256PrivateKey: key, kid: "secret-holder")
        let d = try #require(jwk.d)
        #expect(jwk.isPrivate)
        #expect(!jwk.description.contains(d))
        #expect(!String(reflecting: jwk).contains(d))
        var dumped = ""
        dump(jwk, to: &dumped)
        #expect(!dumped.contains(d))
        #expect(!"\(JWKSet(keys: [jwk]))".contains(d))
        #expect(jwk.publicJWK.d == nil)
        guard case let .p256(back) = try jwk.signingKey else { Issue.record("not P-256"); return }
        #expect(sameEncoding(back.publicKey, key.publicKey))
        #expect(JWK(ed25519PrivateKey: Curve25519.Signing.PrivateKey()).isPrivate)
        #expect(JWK(p384PrivateKey: P384.Signing.PrivateKey()).isPrivate)
    }

    @Test func mismatchedPrivateAndPublicMembersAreRejected() throws {
        var jwk = JWK(p256PrivateKey: P256.Signing.PrivateKey())
        jwk.x = JWK(p256: P256.Signing.PrivateKey().publicKey).x
        #expect(throws: CryptoError.self) { try jwk.signingKey }
        #expect(throws: CryptoError.self) { try JWK(rsa: TestKeys.rsa().publicKey).signingKey }
    }

    @Test func badKeysAreRejected() throws {
        let good = JWK(p256: P256.Signing.PrivateKey().publicKey)
        var short = good; short.x = String(good.x!.dropLast(2))
        #expect(throws: CryptoError.self) { try short.verificationKey }
        var offCurve = good; offCurve.y = good.x
        #expect(throws: CryptoError.self) { try offCurve.verificationKey }
        var p521 = good; p521.crv = "P-521"
        #expect(throws: CryptoError.self) { try p521.verificationKey }
        var enc = good; enc.use = "enc"
        #expect(throws: CryptoError.self) { try enc.verificationKey }
        var signOnly = good; signOnly.keyOps = ["sign"]
        #expect(throws: CryptoError.self) { try signOnly.verificationKey }
        var noBase64 = good; noBase64.x = "**"
        #expect(throws: CryptoError.self) { try noBase64.verificationKey }
        #expect(throws: CryptoError.self) { try JWK(kty: "oct").verificationKey }
        #expect(throws: CryptoError.self) { try JWK(kty: "oct").thumbprint() }
        #expect(throws: CryptoError.self) { try JWK(kty: "EC", crv: "P-256", x: "AA").thumbprint() }
        var n1024 = Data(repeating: 0xc5, count: 128); n1024[127] = 0x0b
        #expect(throws: CryptoError.self) { try JWK(kty: "RSA", n: n1024.base64URLEncodedString(), e: "AQAB").verificationKey }
        #expect(throws: (any Error).self) { try JOSEVectors.jwk(#"{"crv":"P-256"}"#) }
        #expect(throws: (any Error).self) { try JOSEVectors.jwk(#"{"kty":"EC","x":5}"#) }
    }

    @Test func jwkSetSkipsUnknownAndMalformedEntries() throws {
        let ec = JWK(p256: P256.Signing.PrivateKey().publicKey, kid: "ec-1")
        let ecJSON = String(decoding: try JSONEncoder().encode(ec), as: UTF8.self)
        let document = """
        {"keys": [
          {"kty":"oct","k":"c2VjcmV0","kid":"hmac"},
          {"kty":"weird","kid":"w"},
          {"kty":7},
          "not an object",
          \(ecJSON),
          \(JOSEVectors.rfc7638JWK)
        ]}
        """
        let set = try JWKSet(jsonData: Data(document.utf8))
        #expect(set.keys.count == 2)
        #expect(set.key(withID: "ec-1") == ec)
        #expect(set.key(withID: "2011-04-29")?.kty == "RSA")
        #expect(set.key(withID: "hmac") == nil)
        let again = try JSONDecoder().decode(JWKSet.self, from: JSONEncoder().encode(set))
        #expect(again == set)
        #expect(throws: CryptoError.self) { try JWKSet(jsonData: Data(#"{"kees":[]}"#.utf8)) }
        #expect(throws: CryptoError.self) { try JWKSet(jsonData: Data("[".utf8)) }
    }
}
