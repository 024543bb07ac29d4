#if !LATCHKEY_APPLE_FRAMEWORKS
import CSodium
#endif
import Foundation
import Testing
@testable import LatchkeyCrypto

@Suite struct JWSTests {
    static let all = Set(JWSAlgorithm.allCases)

    static func rsaA2() throws -> RSA.Signing.PublicKey {
        guard case let .rsa(key) = try JWK(kty: "RSA", n: JOSEVectors.a2n, e: JOSEVectors.a2e).verificationKey else {
            throw CryptoError.malformedInput("not RSA")
        }
        return key
    }

    static func p256A3() throws -> P256.Signing.PublicKey {
        guard case let .p256(key) = try JWK(kty: "EC", crv: "P-256", x: JOSEVectors.a3x, y: JOSEVectors.a3y).verificationKey else {
            throw CryptoError.malformedInput("not P-256")
        }
        return key
    }

    @Test func rfc7515A2RS256() throws {
        let jws = try JWS(compactSerialization: JOSEVectors.a2JWS)
        #expect(jws.header.alg == .RS256)
        #expect(jws.signature.count == 256)
        #expect(String(decoding: jws.payload, as: UTF8.self).contains("\"iss\":\"joe\""))
        try jws.verify(using: .rsa(Self.rsaA2()), allowedAlgorithms: [.RS256])
        #expect(throws: CryptoError.unsupportedAlgorithm("RS256 is not allowed")) {
            try jws.verify(using: .rsa(Self.rsaA2()), allowedAlgorithms: [.ES256, .PS256])
        }
    }

    @Test func rfc7515A3ES256() throws {
        let jws = try JWS(compactSerialization: JOSEVectors.a3JWS)
        #expect(jws.header.alg == .ES256 && jws.signature.count == 64)
        try jws.verify(using: .p256(Self.p256A3()), allowedAlgorithms: [.ES256])
        // Sign with the A.3 private key and verify (ECDSA is randomized, so no fixed output).
        let d = try #require(Data(base64URLEncoded: JOSEVectors.a3d))
        let key = try P256.Signing.PrivateKey(rawRepresentation: d)
        let token = try JWS.sign(payload: jws.payload, header: JWSHeader(alg: .ES256), key: .p256(key))
        try JWS(compactSerialization: token).verify(using: .p256(Self.p256A3()), allowedAlgorithms: [.ES256])
    }

    @Test func rfc7520Section4_1RS256() throws {
        let jws = try JWS(compactSerialization: JOSEVectors.rfc7520RS256)
        #expect(jws.header.kid == "bilbo.baggins@hobbiton.example")
        #expect(String(decoding: jws.payload, as: UTF8.self).hasPrefix("It\u{2019}s a dangerous business, Frodo"))
        let key = try JWK(kty: "RSA", n: JOSEVectors.frodoN, e: "AQAB").verificationKey
        try jws.verify(using: key, allowedAlgorithms: [.RS256])
        #expect(throws: CryptoError.authenticationFailure) {
            try jws.verify(using: .rsa(Self.rsaA2()), allowedAlgorithms: [.RS256])
        }
    }

    @Test func rfc8037EdDSAIsReproducedExactly() throws {
        let jwk = try JOSEVectors.jwk(JOSEVectors.rfc8037PrivateJWK)
        let token = try JWS.sign(payload: Data("Example of Ed25519 signing".utf8), header: JWSHeader(alg: .EdDSA),
                                 key: jwk.signingKey)
        #expect(token == JOSEVectors.rfc8037JWS)
        try JWS(compactSerialization: JOSEVectors.rfc8037JWS).verify(using: jwk.publicJWK.verificationKey, allowedAlgorithms: [.EdDSA])
    }

    static func signingKeys(rsa: RSA.Signing.PrivateKey) throws -> [(JWSAlgorithm, JWSSigningKey)] {
        return [(.ES256, .p256(P256.Signing.PrivateKey())), (.ES384, .p384(P384.Signing.PrivateKey())),
                (.EdDSA, .ed25519(Curve25519.Signing.PrivateKey())), (.RS256, .rsa(rsa)), (.PS256, .rsa(rsa))]
    }

    @Test func everyAlgorithmRoundTripsAndRejectsTampering() throws {
        let payload = Data(#"{"hello":"world"}"#.utf8)
        let others = try Self.signingKeys(rsa: TestKeys.rsa2())
        for (alg, key) in try Self.signingKeys(rsa: TestKeys.rsa()) {
            let header = JWSHeader(alg: alg, kid: "k", typ: "JWT", additional: ["x-extra": .integer(7)])
            let token = try JWS.sign(payload: payload, header: header, key: key)
            let jws = try JWS(compactSerialization: token)
            #expect(jws.header.kid == "k" && jws.header.typ == "JWT" && jws.header["x-extra"] == .integer(7))
            #expect(jws.payload == payload)
            try jws.verify(using: key.verificationKey, allowedAlgorithms: [alg])

            // Wrong key of the same type.
            let other = try #require(others.first { $0.0 == alg }?.1.verificationKey)
            #expect(throws: CryptoError.authenticationFailure) { try jws.verify(using: other, allowedAlgorithms: [alg]) }

            // Flipped bit in the signature.
            var parts = token.split(separator: ".").map(String.init)
            var sig = try #require(Data(base64URLEncoded: parts[2]))
            sig[sig.count / 2] ^= 0x01
            parts[2] = sig.base64URLEncodedString()
            #expect(throws: CryptoError.authenticationFailure) {
                try JWS(compactSerialization: parts.joined(separator: ".")).verify(using: key.verificationKey, allowedAlgorithms: [alg])
            }
            // Flipped bit in the payload.
            var body = payload
            body[3] ^= 0x20
            parts = token.split(separator: ".").map(String.init)
            parts[1] = body.base64URLEncodedString()
            #expect(throws: CryptoError.authenticationFailure) {
                try JWS(compactSerialization: parts.joined(separator: ".")).verify(using: key.verificationKey, allowedAlgorithms: [alg])
            }
        }
    }

    @Test func algorithmMustSuitTheKey() throws {
        let rsa = try TestKeys.rsa()
        let ec = P256.Signing.PrivateKey()
        // An ES256 token checked with an RSA key, and the reverse.
        let es = try JWS(compactSerialization: JWS.sign(payload: Data("{}".utf8), header: JWSHeader(alg: .ES256), key: .p256(ec)))
        #expect(throws: CryptoError.self) { try es.verify(using: .rsa(rsa.publicKey), allowedAlgorithms: Self.all) }
        let rs = try JWS(compactSerialization: JWS.sign(payload: Data("{}".utf8), header: JWSHeader(alg: .RS256), key: .rsa(rsa)))
        #expect(throws: CryptoError.self) { try rs.verify(using: .p256(ec.publicKey), allowedAlgorithms: Self.all) }
        // Signing refuses a header that does not suit the key.
        #expect(throws: CryptoError.self) { try JWS.sign(payload: Data(), header: JWSHeader(alg: .RS256), key: .p256(ec)) }
        #expect(throws: CryptoError.self) { try JWS.sign(payload: Data(), header: JWSHeader(alg: .ES384), key: .p256(ec)) }
        // PS256 and RS256 signatures are not interchangeable.
        let ps = try JWS.sign(payload: Data("{}".utf8), header: JWSHeader(alg: .PS256), key: .rsa(rsa))
        let swapped = "eyJhbGciOiJSUzI1NiJ9." + ps.split(separator: ".").dropFirst().joined(separator: ".")
        #expect(throws: CryptoError.authenticationFailure) {
            try JWS(compactSerialization: swapped).verify(using: .rsa(rsa.publicKey), allowedAlgorithms: Self.all)
        }
    }

    @Test func noneAndHMACAreRejectedAtParse() throws {
        func header(_ json: String) -> String { Data(json.utf8).base64URLEncodedString() }
        let payload = Data(#"{"sub":"admin"}"#.utf8).base64URLEncodedString()
        for alg in ["none", "None", "NONE", "HS256", "HS512", "RS512", "ES512"] {
            let token = header(#"{"alg":"\#(alg)"}"#) + "." + payload + ".c2ln"
            #expect(throws: CryptoError.unsupportedAlgorithm(alg)) { try JWS(compactSerialization: token) }
        }
        // alg:none with an empty signature (the classic unsigned token).
        #expect(throws: CryptoError.self) { try JWS(compactSerialization: header(#"{"alg":"none"}"#) + "." + payload + ".") }

        // Algorithm confusion: an HS256 token whose HMAC key is the RSA public key's PEM.
        let rsa = try Self.rsaA2()
        let input = header(#"{"alg":"HS256","typ":"JWT"}"#) + "." + payload
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(rsa.pemRepresentation.utf8))))
        let forged = input + "." + mac.base64URLEncodedString()
        #expect(throws: CryptoError.unsupportedAlgorithm("HS256")) { try JWS(compactSerialization: forged) }
    }

    @Test func malformedTokensAreRejected() throws {
        let good = JOSEVectors.a3JWS
        let parts = good.split(separator: ".").map(String.init)
        let cases: [String] = [
            "", ".", "..", "...",
            parts[0] + "." + parts[1],                                  // two parts
            good + "." + parts[2],                                      // four parts
            String(good.dropLast(10)) + "=",                            // padding
            parts[0] + "." + parts[1] + "." + parts[2] + "!",           // bad character
            parts[0] + "+." + parts[1] + "." + parts[2],                // standard-base64 character
            "." + parts[1] + "." + parts[2],                            // empty header
            parts[0] + "." + parts[1] + ".",                            // empty signature
            Data("{not json".utf8).base64URLEncodedString() + "." + parts[1] + "." + parts[2],
            Data(#"["alg","ES256"]"#.utf8).base64URLEncodedString() + "." + parts[1] + "." + parts[2],
            Data(#"{"alg":256}"#.utf8).base64URLEncodedString() + "." + parts[1] + "." + parts[2],
            Data(#"{"typ":"JWT"}"#.utf8).base64URLEncodedString() + "." + parts[1] + "." + parts[2],
            Data(#"{"alg":"ES256","kid":7}"#.utf8).base64URLEncodedString() + "." + parts[1] + "." + parts[2],
            Data(#"{"alg":"ES256","crit":["exp"],"exp":1}"#.utf8).base64URLEncodedString() + "." + parts[1] + "." + parts[2],
        ]
        for token in cases {
            #expect(throws: CryptoError.self, "\(token.prefix(60))") { try JWS(compactSerialization: token) }
        }
        // Truncated signature (canonically spelled): parses, does not verify.
        let shortSignature = try #require(Data(base64URLEncoded: parts[2])).prefix(60).base64URLEncodedString()
        let truncated = try JWS(compactSerialization: parts[0] + "." + parts[1] + "." + shortSignature)
        #expect(throws: CryptoError.authenticationFailure) { try truncated.verify(using: .p256(Self.p256A3()), allowedAlgorithms: [.ES256]) }
    }

    @Test func signatureHasOneSpelling() throws {
        // Found by the jwt fuzz target: the last base64url symbol of a 64-byte signature carries 4 unused bits;
        // setting them re-spelled the signature and the changed token still verified.
        let good = JOSEVectors.a3JWS
        let last = try #require(good.last)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let value = try #require(alphabet.firstIndex(of: last))
        let respelled = String(good.dropLast()) + String(alphabet[value | 1])
        #expect(respelled != good)
        #expect(throws: CryptoError.malformedInput("JWS base64url")) { try JWS(compactSerialization: respelled) }
        // Found by the jwt fuzz target after the libsodium fast path: bytes ≥ 0x80 decoded as symbols.
        let parts = good.split(separator: ".").map(String.init)
        let garbled = parts[0] + "." + String(parts[1].dropLast(2)) + "\u{FFFD}" + "." + parts[2]
        #expect(throws: CryptoError.malformedInput("JWS base64url")) { try JWS(compactSerialization: garbled) }
        #expect(Data(base64URLEncoded: "eyJleH\u{FFFD}\u{FFFD}OjE3MDAwMDAwMDB9") == nil)
        #expect(Data(base64URLEncoded: "AB") == nil)       // 0x00 with a stray bit
        #expect(Data(base64URLEncoded: "AA") == Data([0]))
        #expect(Data(base64URLEncoded: "AAB") == nil)      // two bytes with a stray bit
        #expect(Data(base64URLEncoded: "AAE") == Data([0, 1]))
    }

    @Test func oversizeTokensAreRejectedBeforeDecoding() throws {
        let huge = String(repeating: "A", count: JWS.defaultMaximumSize + 1)
        #expect(throws: CryptoError.inputTooLarge(limit: JWS.defaultMaximumSize)) { try JWS(compactSerialization: huge) }
        let token = JOSEVectors.a3JWS
        #expect(throws: CryptoError.inputTooLarge(limit: 100)) { try JWS(compactSerialization: token, maximumSize: 100) }
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS
    /// The decoder against libsodium's (which it replaced) on random text — symbols, other bytes, every length
    /// remainder: the same bytes for what libsodium accepts, and nothing else accepted except text that decodes
    /// and re-encodes to itself.
    @Test func base64URLDecodingAgreesWithLibsodium() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let others = Array("=+/ .\n\0é".utf8) + [0x80, 0xff]
        for round in 0..<3000 {
            let length = Int.random(in: 0...14)
            var text = (0..<length).map { _ in alphabet.randomElement()! }
            if round % 5 == 0, length > 0 { text[Int.random(in: 0..<length)] = others.randomElement()! }
            let ours = text.withUnsafeBufferPointer { Base64URLCoder.decode(buffer: $0) }
            var out = [UInt8](repeating: 0, count: 16)
            var decoded = 0
            let sodium = text.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    sodium_base642bin(&out, out.count, chars.baseAddress, chars.count, nil, &decoded, nil,
                                      sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0
                }
            }
            let label = String(decoding: text, as: UTF8.self)
            if sodium, text.allSatisfy({ alphabet.contains($0) }) {
                #expect(ours == Data(out.prefix(decoded)), "\(label)")
            }
            if let ours {
                #expect(ours.base64URLEncodedString() == label, "\(label)")
            }
        }
    }
    #endif

    @Test func byteLevelBase64URLAgreesWithTheSharedCodec() {
        for length in 0..<70 {
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            let text = data.base64URLEncodedString()
            // RFC 4648 §5 from §4: the standard alphabet's "+" and "/" replaced, the padding dropped.
            let expected = data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == expected)
            #expect(Base64URLCoder.encode(data) == text)
            #expect(Base64URLCoder.decode(Array(text.utf8)) == data)
        }
        for bad in ["A", "AAAAA", "AA==", "AB+C", "AB/C", "AB C", "é"] {
            #expect(Base64URLCoder.decode(Array(bad.utf8)) == nil, "\(bad)")
            #expect(Data(base64URLEncoded: bad) == nil, "\(bad)")
        }
    }

    @Test func derEncodedECDSASignaturesAreNotJOSE() throws {
        let key = P256.Signing.PrivateKey()
        let input = Data(#"{"alg":"ES256"}"#.utf8).base64URLEncodedString() + "." + Data("{}".utf8).base64URLEncodedString()
        let der = try key.signature(for: Data(input.utf8)).derRepresentation
        let jws = try JWS(compactSerialization: input + "." + der.base64URLEncodedString())
        #expect(throws: CryptoError.authenticationFailure) { try jws.verify(using: .p256(key.publicKey), allowedAlgorithms: [.ES256]) }
    }
}

/// Published JOSE examples, typed in from the RFCs.
enum JOSEVectors {
    /// RFC 7515 Appendix A.2 (RS256) key and JWS.
    static let a2n = "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
    static let a2e = "AQAB"
    /// The payload shared by A.2 and A.3: {"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}
    static let a2a3Payload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    static let a2JWS = "eyJhbGciOiJSUzI1NiJ9." + a2a3Payload + ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    /// RFC 7515 Appendix A.3 (ES256) key and JWS.
    static let a3x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let a3y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let a3d = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"
    static let a3JWS = "eyJhbGciOiJFUzI1NiJ9." + a2a3Payload + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    /// RFC 7520 §3.4 RSA key (bilbo.baggins@hobbiton.example) and §4.1 RS256 JWS.
    static let frodoN = "n4EPtAOCc9AlkeQHPzHStgAbgs7bTZLwUBZdR8_KuKPEHLd4rHVTeT-O-XV2jRojdNhxJWTDvNd7nqQ0VEiZQHz_AJmSCpMaJMRBSFKrKb2wqVwGU_NsYOYL-QtiWN2lbzcEe6XC0dApr5ydQLrHqkHHig3RBordaZ6Aj-oBHqFEHYpPe7Tpe-OfVfHd1E6cS6M1FZcD1NNLYD5lFHpPI9bTwJlsde3uhGqC0ZCuEHg8lhzwOHrtIQbS0FVbb9k3-tVTU4fg_3L_vniUFAKwuCLqKnS2BYwdq_mzSnbLY7h_qixoR7jig3__kRhuaxwUkRz5iaiQkqgc5gHdrNP5zw"
    static let frodoPayload = "SXTigJlzIGEgZGFuZ2Vyb3VzIGJ1c2luZXNzLCBGcm9kbywgZ29pbmcgb3V0IHlvdXIgZG9vci4gWW91IHN0ZXAgb250byB0aGUgcm9hZCwgYW5kIGlmIHlvdSBkb24ndCBrZWVwIHlvdXIgZmVldCwgdGhlcmXigJlzIG5vIGtub3dpbmcgd2hlcmUgeW91IG1pZ2h0IGJlIHN3ZXB0IG9mZiB0by4"
    static let rfc7520RS256 = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImJpbGJvLmJhZ2dpbnNAaG9iYml0b24uZXhhbXBsZSJ9." + frodoPayload
        + ".MRjdkly7_-oTPTS3AXP41iQIGKa80A0ZmTuV5MEaHoxnW2e5CZ5NlKtainoFmKZopdHM1O2U4mwzJdQx996ivp83xuglII7PNDi84wnB-BDkoBwA78185hX-Es4JIwmDLJK3lfWRa-XtL0RnltuYv746iYTh_qHRD68BNt1uSNCrUCTJDt5aAE6x8wW1Kt9eRo4QPocSadnHXFxnt8Is9UzpERV0ePPQdLuW3IS_de3xyIrDaLGdjluPxUAhb6L2aXic1U12podGU0KLUQSE_oI-ZnmKJ3F4uOZDnd6QZWJushZ41Axf_fcIe8u9ipH84ogoree7vjbU5y18kDquDg"

    /// RFC 7638 §3.1 example key and thumbprint.
    static let rfc7638JWK = #"{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}"#
    static let rfc7638Thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"

    /// RFC 8037 Appendix A.1–A.5 Ed25519 key, thumbprint and JWS.
    static let rfc8037PrivateJWK = #"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
    static let rfc8037Thumbprint = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    static let rfc8037JWS = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"

    static func jwk(_ json: String) throws -> JWK {
        try JSONDecoder().decode(JWK.self, from: Data(json.utf8))
    }
}


/// RSA keys generated once per test run (key generation is slow).
enum TestKeys {
    private static let first = Result { try RSA.Signing.PrivateKey(keySize: 2048) }
    private static let second = Result { try RSA.Signing.PrivateKey(keySize: 2048) }
    static func rsa() throws -> RSA.Signing.PrivateKey { try first.get() }
    static func rsa2() throws -> RSA.Signing.PrivateKey { try second.get() }
}
