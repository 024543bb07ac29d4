import Foundation
import LatchkeyCrypto

/// JWK and JWK Set parse, key import and thumbprint. Properties: a JWK set re-encodes to one that parses to
/// the same keys; a key that imports gives a public JWK that imports to the same key.
enum JWKFuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        var keys: [JWK] = []
        if let set = try? JWKSet(jsonData: data) {
            keys = set.keys
            let encoded: Data
            do { encoded = try JSONEncoder().encode(set) } catch {
                throw FuzzPropertyViolation(.jwk, "a parsed JWK set cannot be encoded: \(error)")
            }
            let again = try? JWKSet(jsonData: encoded)
            try require(again == set, .jwk, "JWK set encode → parse gives other keys")
            _ = JWSVerificationKeySet(set)
        } else if let jwk = try? JSONDecoder().decode(JWK.self, from: data) {
            keys = [jwk]
        }
        for jwk in keys.prefix(8) {
            _ = try? jwk.thumbprint()
            _ = try? jwk.signingKey
            guard let key = try? jwk.verificationKey else { continue }
            let again = try? JWK(key).verificationKey
            try require(again == key, .jwk, "the public JWK of an imported key imports to another key")
        }
    }

    static func seeds() -> [Data] {
        var jwks: [JWK] = []
        jwks.append(JWK(p256PrivateKey: P256.Signing.PrivateKey(), kid: "p256"))
        jwks.append(JWK(p384: P384.Signing.PrivateKey().publicKey, kid: "p384"))
        jwks.append(JWK(ed25519PrivateKey: Curve25519.Signing.PrivateKey(), kid: "ed"))
        if let k = try? RSA.Signing.PrivateKey(keySize: 2048) {
            var j = JWK(rsa: k.publicKey, kid: "rsa")
            j.alg = "RS256"; j.use = "sig"; j.keyOps = ["verify"]
            jwks.append(j)
        }
        var seeds = jwks.compactMap { try? JSONEncoder().encode($0) }
        if let set = try? JSONEncoder().encode(JWKSet(keys: jwks)) { seeds.append(set) }
        seeds.append(Data(#"{"keys":[{"kty":"oct","k":"AAAA"},{"kty":"EC","crv":"P-256","x":"","y":""}]}"#.utf8))
        return seeds
    }
}
