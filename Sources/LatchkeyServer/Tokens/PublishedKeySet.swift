import Foundation
import LatchkeyCrypto

/// A public ES256 key as published in the JWKS (RFC 7517 / RFC 7518 §6.2).
public struct PublishedKey: Codable, Sendable, Equatable {
    public var kty: String
    public var crv: String
    public var x: String
    public var y: String
    public var kid: String
    public var use: String?
    public var alg: String?

    /// The JWK of `key` with id `kid`.
    public init(kid: String, key: P256.Signing.PublicKey) {
        let point = key.x963Representation // 0x04 || x || y
        kty = "EC"; crv = "P-256"
        x = Data(point.dropFirst().prefix(32)).base64URLEncodedString()
        y = Data(point.dropFirst(33)).base64URLEncodedString()
        self.kid = kid; use = "sig"; alg = "ES256"
    }

    /// The P-256 key. Throws for another key type, curve or a point not on the curve.
    public func publicKey() throws -> P256.Signing.PublicKey {
        guard kty == "EC", crv == "P-256", alg == nil || alg == "ES256", use == nil || use == "sig",
              let xd = Data(base64URLEncoded: x), let yd = Data(base64URLEncoded: y), xd.count == 32, yd.count == 32
        else { throw CryptoError.malformedInput("JWK") }
        return try P256.Signing.PublicKey(x963Representation: Data([4]) + xd + yd)
    }
}

/// The document at `/.well-known/jwks.json`: `{"keys":[...]}`.
public struct PublishedKeySet: Codable, Sendable, Equatable {
    public var keys: [PublishedKey]

    public init(keys: [PublishedKey]) { self.keys = keys }

    /// Parses a JWKS document; keys that are not ES256/P-256 are ignored.
    public init(jsonData: Data) throws {
        struct Loose: Decodable { var keys: [LooseKey] }
        struct LooseKey: Decodable { var kty: String?; var crv: String?; var x: String?; var y: String?; var kid: String?; var use: String?; var alg: String? }
        let loose = try JSONDecoder().decode(Loose.self, from: jsonData)
        keys = loose.keys.compactMap { k in
            guard k.kty == "EC", k.crv == "P-256", let x = k.x, let y = k.y, let kid = k.kid else { return nil }
            let key = PublishedKey(kty: "EC", crv: "P-256", x: x, y: y, kid: kid, use: k.use, alg: k.alg)
            return (try? key.publicKey()) == nil ? nil : key
        }
    }

    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension PublishedKey {
    init(kty: String, crv: String, x: String, y: String, kid: String, use: String?, alg: String?) {
        self.kty = kty; self.crv = crv; self.x = x; self.y = y; self.kid = kid; self.use = use; self.alg = alg
    }
}
