import Foundation
import Testing
@testable import LatchkeyCrypto

@Suite struct JWTTests {
    let key: P256.Signing.PrivateKey
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws { key = P256.Signing.PrivateKey() }

    func options(_ configure: (inout JWTValidationOptions) -> Void = { _ in }) -> JWTValidationOptions {
        var o = JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: "https://issuer.example",
                                     audiences: ["app"], now: now)
        configure(&o)
        return o
    }

    func claims(_ configure: (inout JWTClaims) -> Void = { _ in }) -> JWTClaims {
        var c = JWTClaims(iss: "https://issuer.example", sub: "user-1", aud: ["app"],
                          exp: now.addingTimeInterval(300), nbf: now.addingTimeInterval(-10),
                          iat: now.addingTimeInterval(-10), jti: "id-1", extra: ["scope": .string("read")])
        configure(&c)
        return c
    }

    func token(_ claims: JWTClaims, typ: String? = "JWT", kid: String? = "k1") throws -> String {
        try JWT.sign(claims: claims, header: JWSHeader(alg: .ES256, kid: kid, typ: typ), key: .p256(key))
    }

    func verify(_ token: String, _ options: JWTValidationOptions) throws(JWTError) -> VerifiedJWT {
        try JWT.verify(token, key: .p256(key.publicKey), options: options)
    }

    @Test func signAndVerifyRegisteredAndExtraClaims() throws {
        let verified = try verify(try token(claims()), options())
        #expect(verified.claims.iss == "https://issuer.example")
        #expect(verified.claims.sub == "user-1")
        #expect(verified.claims.aud == ["app"])
        #expect(verified.claims.exp == now.addingTimeInterval(300))
        #expect(verified.claims.jti == "id-1")
        #expect(verified.claims[claim: "scope"] == .string("read"))
        #expect(verified.claims[claim: "sub"] == .string("user-1"))
        #expect(verified.header.kid == "k1" && verified.header.typ == "JWT")
        // NumericDates are integers on the wire, a single audience is a string.
        let text = String(decoding: verified.payload, as: UTF8.self)
        #expect(text.contains("\"exp\":1700000300") && text.contains("\"aud\":\"app\""))
    }

    struct Custom: Codable, Equatable {
        let iss: String, aud: [String], exp: Date, role: String
    }

    @Test func customCodableClaims() throws {
        let custom = Custom(iss: "https://issuer.example", aud: ["app", "other"], exp: now.addingTimeInterval(60), role: "admin")
        let token = try JWT.sign(claims: custom, header: JWSHeader(alg: .ES256), key: .p256(key))
        let verified = try verify(token, options())
        #expect(try verified.decode(Custom.self) == custom)
        #expect(verified.claims.aud == ["app", "other"])
        #expect(verified.claims[claim: "role"]?.stringValue == "admin")
        #expect(throws: CryptoError.self) { try JWT.sign(claims: ["not", "an", "object"], header: JWSHeader(alg: .ES256), key: .p256(key)) }
    }

    @Test func expiryWithClockSkew() throws {
        let expired = try token(claims { $0.exp = now.addingTimeInterval(-61) })
        #expect(throws: JWTError.expired) { try verify(expired, options()) }
        let withinSkew = try token(claims { $0.exp = now.addingTimeInterval(-30) })
        _ = try verify(withinSkew, options())
        #expect(throws: JWTError.expired) { try verify(withinSkew, options { $0.clockSkew = 0 }) }
        let exactlyNow = try token(claims { $0.exp = now })
        #expect(throws: JWTError.expired) { try verify(exactlyNow, options { $0.clockSkew = 0 }) }
    }

    @Test func notBeforeAndIssuedAtInTheFuture() throws {
        let early = try token(claims { $0.nbf = now.addingTimeInterval(120) })
        #expect(throws: JWTError.notYetValid) { try verify(early, options()) }
        _ = try verify(try token(claims { $0.nbf = now.addingTimeInterval(45) }), options())
        let future = try token(claims { $0.iat = now.addingTimeInterval(120) })
        #expect(throws: JWTError.issuedInFuture) { try verify(future, options()) }
        _ = try verify(try token(claims { $0.iat = now.addingTimeInterval(45) }), options())
    }

    @Test func expirationIsRequiredByDefault() throws {
        let forever = try token(claims { $0.exp = nil })
        #expect(throws: JWTError.missingClaim("exp")) { try verify(forever, options()) }
        _ = try verify(forever, options { $0.requireExpiration = false })
        #expect(throws: JWTError.missingClaim("jti")) {
            try verify(try token(claims { $0.jti = nil }), options { $0.requiredClaims = ["jti"] })
        }
    }

    @Test func issuerAndAudience() throws {
        #expect(throws: JWTError.wrongIssuer) { try verify(try token(claims { $0.iss = "https://evil.example" }), options()) }
        #expect(throws: JWTError.missingClaim("iss")) { try verify(try token(claims { $0.iss = nil }), options()) }
        #expect(throws: JWTError.wrongAudience) { try verify(try token(claims { $0.aud = ["someone-else"] }), options()) }
        #expect(throws: JWTError.missingClaim("aud")) { try verify(try token(claims { $0.aud = nil }), options()) }
        _ = try verify(try token(claims { $0.aud = ["x", "app"] }), options())
        _ = try verify(try token(claims()), options { $0.audiences = ["web", "app"] })
        // A token meant for an audience is refused by a verifier that names none.
        #expect(throws: JWTError.wrongAudience) { try verify(try token(claims()), options { $0.audiences = nil }) }
        _ = try verify(try token(claims { $0.aud = nil }), options { $0.audiences = nil })
    }

    @Test func expectedType() throws {
        let at = try token(claims(), typ: "at+jwt")
        _ = try verify(at, options { $0.expectedType = "at+jwt" })
        _ = try verify(try token(claims(), typ: "application/AT+JWT"), options { $0.expectedType = "at+jwt" })
        #expect(throws: JWTError.wrongType) { try verify(try token(claims()), options { $0.expectedType = "at+jwt" }) }
        #expect(throws: JWTError.wrongType) { try verify(try token(claims(), typ: nil), options { $0.expectedType = "at+jwt" }) }
    }

    @Test func algorithmAllowListAndKeyType() throws {
        let good = try token(claims())
        #expect(throws: JWTError.algorithmNotAllowed) { try verify(good, options { $0.allowedAlgorithms = [.RS256] }) }
        #expect(throws: JWTError.algorithmNotAllowed) { try verify(good, options { $0.allowedAlgorithms = [] }) }
        // ES256 header, RSA key.
        let rsa = try TestKeys.rsa()
        #expect(throws: JWTError.algorithmNotAllowed) {
            try JWT.verify(good, key: .rsa(rsa.publicKey), options: options { $0.allowedAlgorithms = Set(JWSAlgorithm.allCases) })
        }
        #expect(throws: JWTError.badSignature) {
            try JWT.verify(good, key: .p256(P256.Signing.PrivateKey().publicKey), options: options())
        }
    }

    @Test func rejectedAlgorithmsAndMalformedTokens() throws {
        func b64(_ s: String) -> String { Data(s.utf8).base64URLEncodedString() }
        let body = b64(#"{"iss":"https://issuer.example","aud":"app","exp":1700000300}"#)
        #expect(throws: JWTError.unsupportedAlgorithm("none")) { try verify(b64(#"{"alg":"none"}"#) + "." + body + ".", options()) }
        #expect(throws: JWTError.unsupportedAlgorithm("HS256")) { try verify(b64(#"{"alg":"HS256"}"#) + "." + body + ".AAAA", options()) }
        #expect(throws: JWTError.malformed) { try verify("a.b", options()) }
        #expect(throws: JWTError.malformed) { try verify(String(repeating: "A", count: 70_000), options()) }
        // Signed payloads that are not claims objects, or have claims of the wrong type.
        for payload in [#"[1,2]"#, #"{"exp":"tomorrow"}"#, #"{"aud":5,"exp":1700000300}"#, #"{"iss":["a"],"exp":1700000300}"#, "not json"] {
            let t = try JWS.sign(payload: Data(payload.utf8), header: JWSHeader(alg: .ES256), key: .p256(key))
            #expect(throws: JWTError.malformed, "\(payload)") { try verify(t, options { $0.issuer = nil; $0.audiences = nil }) }
        }
        // Truncated token.
        let good = try token(claims())
        #expect(throws: JWTError.badSignature) { try verify(String(good.dropLast(6)), options()) }
        #expect(throws: JWTError.malformed) { try verify(String(good.prefix(good.count / 2)) + "%", options()) }
    }

    @Test func keySetSelectionByKid() throws {
        let rsa = try TestKeys.rsa()
        var ecJWK = JWK(p256: key.publicKey, kid: "ec")
        ecJWK.alg = "ES256"
        let set = JWKSet(keys: [JWK(rsa: rsa.publicKey, kid: "rsa"), ecJWK,
                                JWK(p256: P256.Signing.PrivateKey().publicKey, kid: "other-ec")])
        let o = options { $0.allowedAlgorithms = [.ES256, .RS256] }

        _ = try JWT.verify(try token(claims(), kid: "ec"), keys: set, options: o)
        #expect(throws: JWTError.unknownKey("missing")) { try JWT.verify(try token(claims(), kid: "missing"), keys: set, options: o) }
        #expect(throws: JWTError.badSignature) { try JWT.verify(try token(claims(), kid: "other-ec"), keys: set, options: o) }
        // ES256 token whose kid names the RSA key: algorithm confusion refused.
        #expect(throws: JWTError.algorithmNotAllowed) { try JWT.verify(try token(claims(), kid: "rsa"), keys: set, options: o) }
        // No kid: every suitable key is tried.
        _ = try JWT.verify(try token(claims(), kid: nil), keys: set, options: o)
        #expect(throws: JWTError.unknownKey(nil)) {
            try JWT.verify(try token(claims(), kid: nil), keys: JWKSet(keys: [JWK(rsa: rsa.publicKey)]), options: o)
        }
        // A JWK whose alg contradicts its key type is not used at all.
        var contradictory = ecJWK
        contradictory.alg = "ES384"
        #expect(throws: JWTError.unknownKey("ec")) {
            try JWT.verify(try token(claims(), kid: "ec"), keys: JWKSet(keys: [contradictory]), options: o)
        }
        // A JWK restricted to PS256 does not verify an RS256 token.
        var psOnly = JWK(rsa: rsa.publicKey, kid: "ps")
        psOnly.alg = "PS256"
        let rsForPS = try JWT.sign(claims: claims(), header: JWSHeader(alg: .RS256, kid: "ps"), key: .rsa(rsa))
        #expect(throws: JWTError.algorithmNotAllowed) { try JWT.verify(rsForPS, keys: JWKSet(keys: [psOnly]), options: o) }
        // RS256 through the set.
        let rs = try JWT.sign(claims: claims(), header: JWSHeader(alg: .RS256, kid: "rsa"), key: .rsa(rsa))
        _ = try JWT.verify(rs, keys: set, options: o)
        #expect(throws: JWTError.algorithmNotAllowed) { try JWT.verify(rs, keys: set, options: options()) }
    }

    @Test func convertedKeySetDropsUnusableKeys() throws {
        let rsa = try TestKeys.rsa()
        var n1024 = Data(repeating: 0xc5, count: 128); n1024[127] = 0x0b
        var enc = JWK(p256: P256.Signing.PrivateKey().publicKey, kid: "enc"); enc.use = "enc"
        var rs512 = JWK(rsa: rsa.publicKey, kid: "rs512"); rs512.alg = "RS512"
        var wrongAlg = JWK(p256: key.publicKey, kid: "mismatch"); wrongAlg.alg = "RS256"
        let set = JWKSet(keys: [JWK(kty: "RSA", n: n1024.base64URLEncodedString(), e: "AQAB", kid: "small"), enc, rs512, wrongAlg,
                                JWK(p256: key.publicKey, kid: "good")])
        let converted = JWSVerificationKeySet(set)
        #expect(converted.entries.map(\.kid) == ["good"])
        _ = try JWT.verify(try token(claims(), kid: "good"), keys: converted, options: options())
        #expect(throws: JWTError.unknownKey("small")) { try JWT.verify(try token(claims(), kid: "small"), keys: converted, options: options()) }
        #expect(throws: JWTError.unknownKey("mismatch")) { try JWT.verify(try token(claims(), kid: "mismatch"), keys: set, options: options()) }
    }

    @Test func keyProviderSeesTheKid() throws {
        let t = try token(claims(), kid: "abc")
        var seen: String??
        _ = try JWT.verify(t, options: options()) { kid in seen = .some(kid); return .p256(key.publicKey) }
        #expect(seen == .some("abc"))
        #expect(throws: JWTError.unknownKey("abc")) { try JWT.verify(t, options: options()) { _ in nil } }
    }

    @Test func errorsHaveMessages() {
        let all: [JWTError] = [.malformed, .unsupportedAlgorithm("none"), .algorithmNotAllowed, .unknownKey("k"), .unknownKey(nil),
                               .badSignature, .expired, .notYetValid, .issuedInFuture, .wrongIssuer, .wrongAudience,
                               .wrongType, .missingClaim("exp")]
        for error in all {
            #expect(error.errorDescription?.isEmpty == false)
            let english = MessageLanguage.english, korean = MessageLanguage.korean
            #expect(english.pick(english: "a", korean: "b") != korean.pick(english: "a", korean: "b"))
        }
    }
}
