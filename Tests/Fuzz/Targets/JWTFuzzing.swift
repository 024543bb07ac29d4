import Foundation
import LatchkeyCrypto

/// JWS compact parse and JWT validation. The first byte chooses:
/// - even: the rest is a token, parsed and verified against fixed keys. Property: the signing input of a
///   parsed token is the canonical base64url of its header and payload bytes.
/// - 1 (mod 4): the rest is `header members ‖ 0x00 ‖ claims` JSON; the target signs it with a fixed Ed25519 key
///   and verifies the token. Properties: a token that verifies re-serializes to the same signing input, and one
///   changed signature symbol makes it fail.
/// - 3 (mod 4): the rest is `header JSON ‖ 0x00 ‖ payload ‖ 0x00 ‖ signature`, base64url-encoded by the target
///   into a token (so header parsing, algorithm selection and key choice see arbitrary JSON), then as for even.
enum JWTFuzzing {
    static let key: Curve25519.Signing.PrivateKey? = try? Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 0x4c, count: 32))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let options = JWTValidationOptions(allowedAlgorithms: [.EdDSA, .ES256, .RS256], issuer: "https://issuer.example",
                                              audiences: ["latchkey"], now: now, requireExpiration: false)

    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        guard let mode = data.first, let key else { return }
        let body = Data(data.dropFirst())
        switch mode & 3 {
        case 1: try signAndVerify(body, key: key)
        case 3:
            let parts = body.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
            let token = parts.map { $0.base64URLEncodedString() }.joined(separator: ".")
            try parseAndVerify(token, key: key)
        default: try parseAndVerify(String(decoding: body, as: UTF8.self), key: key)
        }
    }

    static func parseAndVerify(_ token: String, key: Curve25519.Signing.PrivateKey) throws(FuzzPropertyViolation) {
        if let jws = try? JWS(compactSerialization: token) {
            let header = jws.header.rawJSON ?? Data()
            let expected = Data((header.base64URLEncodedString() + "." + jws.payload.base64URLEncodedString()).utf8)
            try require(jws.signingInput == expected, .jwt, "signing input is not the canonical base64url of header and payload")
        }
        var jwks = [JWK(ed25519: key.publicKey, kid: "ed")]
        if let p256 = otherKeys.p256 { jwks.append(JWK(p256: p256, kid: "p256")) }
        if let rsa = otherKeys.rsa {
            var jwk = JWK(rsa: rsa, kid: "rsa")
            jwk.alg = "RS256"
            jwks.append(jwk)
        }
        let keys = JWKSet(keys: jwks)
        _ = try? JWT.verify(token, keys: keys, options: options)
        _ = try? JWT.verify(token, key: .ed25519(key.publicKey), options: options)
    }

    /// Verification keys of the other types, so that `kid` and `alg` choose among several (fixed for the run).
    static let otherKeys: (p256: P256.Signing.PublicKey?, rsa: RSA.Signing.PublicKey?) = (
        P256.Signing.PrivateKey().publicKey, (try? RSA.Signing.PrivateKey(keySize: 2048))?.publicKey
    )

    static func signAndVerify(_ body: Data, key: Curve25519.Signing.PrivateKey) throws(FuzzPropertyViolation) {
        let parts = body.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let members = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(parts[0]))) ?? [:]
        let header = JWSHeader(alg: .EdDSA, kid: members["kid"]?.stringValue, typ: members["typ"]?.stringValue,
                               additional: members)
        let payload = parts.count > 1 ? Data(parts[1]) : Data()
        guard let token = try? JWS.sign(payload: payload, header: header, key: .ed25519(key)) else { return }
        let verified: VerifiedJWT
        do { verified = try JWT.verify(token, key: .ed25519(key.publicKey), options: options) } catch {
            if error == .badSignature || error == .algorithmNotAllowed {
                throw FuzzPropertyViolation(.jwt, "a token signed with the key fails its signature check: \(error)")
            }
            return // the claims are refused (expired, wrong audience...): a typed answer
        }
        let dot = token.lastIndex(of: ".") ?? token.endIndex
        let signingInput = String(token[..<dot])
        let header2 = verified.header.rawJSON ?? Data()
        try require(header2.base64URLEncodedString() + "." + verified.payload.base64URLEncodedString() == signingInput,
                    .jwt, "a verified JWT does not re-serialize to its signing input")
        var tampered = Array(token.utf8)
        if let last = tampered.indices.last {
            tampered[last] = tampered[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let changed = String(decoding: tampered, as: UTF8.self)
            try require((try? JWT.verify(changed, key: .ed25519(key.publicKey), options: options)) == nil,
                        .jwt, "a token with a changed signature verifies")
        }
    }

    static func seeds() -> [Data] {
        guard let key else { return [] }
        var seeds: [Data] = []
        let claims = [
            #"{"iss":"https://issuer.example","aud":"latchkey","sub":"user-1","exp":1900000000,"iat":1700000000}"#,
            #"{"iss":"https://issuer.example","aud":["latchkey","other"],"nbf":1700000000.5,"scope":"read write"}"#,
            #"{"iss":"https://issuer.example","aud":"latchkey","exp":1700000000}"#,
        ]
        for claim in claims {
            seeds.append(Data([1]) + Data(#"{"kid":"ed","typ":"JWT"}"#.utf8) + Data([0]) + Data(claim.utf8))
            let header = JWSHeader(alg: .EdDSA, kid: "ed", typ: "JWT")
            if let token = try? JWS.sign(payload: Data(claim.utf8), header: header, key: .ed25519(key)) {
                seeds.append(Data([0]) + Data(token.utf8))
            }
        }
        if let token = try? JWS.sign(payload: Data(claims[0].utf8), header: JWSHeader(alg: .ES256),
                                     key: .p256(P256.Signing.PrivateKey())) {
            seeds.append(Data([0]) + Data(token.utf8))
        }
        seeds.append(Data([0]) + Data("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.".utf8))
        for header in [#"{"alg":"EdDSA","kid":"ed"}"#, #"{"alg":"ES256","kid":"p256","typ":"at+jwt"}"#,
                       #"{"alg":"RS256","kid":"rsa","jku":"https://evil.example/jwks"}"#, #"{"alg":"HS256","kid":"rsa"}"#] {
            seeds.append(Data([3]) + Data(header.utf8) + Data([0]) + Data(claims[0].utf8) + Data([0]) + Data(repeating: 1, count: 64))
        }
        return seeds
    }
}
