import Foundation

/// A JSON Web Key (RFC 7517) for EC P-256/P-384, RSA and OKP Ed25519 keys.
///
/// `d` is present only in private EC/OKP keys; it is encoded when the JWK is encoded (so a private
/// JWK can be stored), but never appears in `description`, `debugDescription` or a mirror.
public struct JWK: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Key type: "EC", "RSA" or "OKP".
    public var kty: String
    /// Curve: "P-256", "P-384" (EC) or "Ed25519" (OKP).
    public var crv: String?
    /// EC x coordinate or OKP public key, base64url.
    public var x: String?
    /// EC y coordinate, base64url.
    public var y: String?
    /// RSA modulus, base64url.
    public var n: String?
    /// RSA public exponent, base64url.
    public var e: String?
    /// Private scalar / seed, base64url (private keys only).
    public var d: String?
    /// Key ID.
    public var kid: String?
    /// Intended use: "sig" or "enc".
    public var use: String?
    /// The one algorithm this key is meant for.
    public var alg: String?
    /// Permitted operations ("sign", "verify", ...).
    public var keyOps: [String]?

    enum CodingKeys: String, CodingKey {
        case kty, crv, x, y, n, e, d, kid, use, alg
        case keyOps = "key_ops"
    }

    /// A JWK from its members.
    public init(kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil,
                e: String? = nil, d: String? = nil, kid: String? = nil, use: String? = nil, alg: String? = nil,
                keyOps: [String]? = nil) {
        self.kty = kty; self.crv = crv; self.x = x; self.y = y; self.n = n; self.e = e; self.d = d
        self.kid = kid; self.use = use; self.alg = alg; self.keyOps = keyOps
    }

    /// The public JWK of a P-256 key.
    public init(p256 key: P256.Signing.PublicKey, kid: String? = nil) {
        let raw = key.rawRepresentation
        self.init(kty: "EC", crv: "P-256", x: raw.prefix(32).base64URLEncodedString(),
                  y: raw.suffix(32).base64URLEncodedString(), kid: kid)
    }

    /// The public JWK of a P-384 key.
    public init(p384 key: P384.Signing.PublicKey, kid: String? = nil) {
        let raw = key.rawRepresentation
        self.init(kty: "EC", crv: "P-384", x: raw.prefix(48).base64URLEncodedString(),
                  y: raw.suffix(48).base64URLEncodedString(), kid: kid)
    }

    /// The public JWK of an Ed25519 key.
    public init(ed25519 key: Curve25519.Signing.PublicKey, kid: String? = nil) {
        self.init(kty: "OKP", crv: "Ed25519", x: key.rawRepresentation.base64URLEncodedString(), kid: kid)
    }

    /// The public JWK of an RSA key.
    public init(rsa key: RSA.Signing.PublicKey, kid: String? = nil) {
        self.init(kty: "RSA", n: key.modulus.base64URLEncodedString(), e: key.exponent.base64URLEncodedString(), kid: kid)
    }

    /// The public JWK of any verification key.
    public init(_ key: JWSVerificationKey, kid: String? = nil) {
        switch key {
        case let .p256(k): self.init(p256: k, kid: kid)
        case let .p384(k): self.init(p384: k, kid: kid)
        case let .rsa(k): self.init(rsa: k, kid: kid)
        case let .ed25519(k): self.init(ed25519: k, kid: kid)
        }
    }

    /// The private JWK (with `d`) of a P-256 key.
    public init(p256PrivateKey key: P256.Signing.PrivateKey, kid: String? = nil) {
        self.init(p256: key.publicKey, kid: kid)
        self.d = key.rawRepresentation.base64URLEncodedString()
    }

    /// The private JWK (with `d`) of a P-384 key.
    public init(p384PrivateKey key: P384.Signing.PrivateKey, kid: String? = nil) {
        self.init(p384: key.publicKey, kid: kid)
        self.d = key.rawRepresentation.base64URLEncodedString()
    }

    /// The private JWK (with `d`) of an Ed25519 key.
    public init(ed25519PrivateKey key: Curve25519.Signing.PrivateKey, kid: String? = nil) {
        self.init(ed25519: key.publicKey, kid: kid)
        self.d = key.rawRepresentation.base64URLEncodedString()
    }

    /// True when the JWK carries private key material.
    public var isPrivate: Bool { d != nil }

    /// This JWK without private members.
    public var publicJWK: JWK {
        var copy = self
        copy.d = nil
        return copy
    }

    /// The key this JWK describes, for verification. Throws for unknown types or curves, wrong
    /// coordinate lengths, points off the curve, RSA keys under 2048 bits, and keys marked `use: enc`.
    public var verificationKey: JWSVerificationKey {
        get throws(CryptoError) {
            if let use, use != "sig" { throw .unsupportedAlgorithm("JWK use \(use)") }
            if let keyOps, !keyOps.contains("verify") { throw .unsupportedAlgorithm("JWK key_ops without verify") }
            switch kty {
            case "EC":
                switch crv {
                case "P-256":
                    let raw = try coordinates(32)
                    return .p256(try checked("JWK P-256 point") { try P256.Signing.PublicKey(rawRepresentation: raw) })
                case "P-384":
                    let raw = try coordinates(48)
                    return .p384(try checked("JWK P-384 point") { try P384.Signing.PublicKey(rawRepresentation: raw) })
                default: throw .unsupportedAlgorithm("EC curve \(crv ?? "missing")")
                }
            case "RSA":
                return .rsa(try RSA.Signing.PublicKey(modulus: member(n, "n"), exponent: member(e, "e")))
            case "OKP":
                guard crv == "Ed25519" else { throw .unsupportedAlgorithm("OKP curve \(crv ?? "missing")") }
                let raw = try member(x, "x")
                return .ed25519(try checked("JWK Ed25519 key") { try Curve25519.Signing.PublicKey(rawRepresentation: raw) })
            default:
                throw .unsupportedAlgorithm("JWK kty \(kty)")
            }
        }
    }

    /// The private key of a private EC or OKP JWK; `x`/`y`, when present, must match `d`.
    public var signingKey: JWSSigningKey {
        get throws(CryptoError) {
            let secret = try member(d, "d")
            let key: JWSSigningKey
            switch (kty, crv) {
            case ("EC", "P-256"): key = .p256(try checked("JWK P-256 d") { try P256.Signing.PrivateKey(rawRepresentation: secret) })
            case ("EC", "P-384"): key = .p384(try checked("JWK P-384 d") { try P384.Signing.PrivateKey(rawRepresentation: secret) })
            case ("OKP", "Ed25519"): key = .ed25519(try checked("JWK Ed25519 d") { try Curve25519.Signing.PrivateKey(rawRepresentation: secret) })
            default: throw .unsupportedAlgorithm("private JWK \(kty) \(crv ?? "")")
            }
            if x != nil {
                var expected = JWK(key.verificationKey)
                expected.kid = kid
                guard expected.x == x, expected.y == y else { throw .malformedInput("JWK d does not match x/y") }
            }
            return key
        }
    }

    private func member(_ value: String?, _ name: String) throws(CryptoError) -> Data {
        guard let value else { throw .malformedInput("JWK without \(name)") }
        guard let data = Data(base64URLEncoded: value) else { throw .malformedInput("JWK \(name) is not base64url") }
        return data
    }

    /// x||y, each exactly `size` bytes (RFC 7518 §6.2.1.2 requires the full length).
    private func coordinates(_ size: Int) throws(CryptoError) -> Data {
        let xBytes = try member(x, "x"), yBytes = try member(y, "y")
        guard xBytes.count == size, yBytes.count == size else {
            throw .invalidKeySize(expected: size, actual: xBytes.count == size ? yBytes.count : xBytes.count)
        }
        return xBytes + yBytes
    }

    /// Type, curve and key ID; never `d`.
    public var description: String {
        var parts = ["kty: \(kty)"]
        if let crv { parts.append("crv: \(crv)") }
        if let kid { parts.append("kid: \(kid)") }
        if let alg { parts.append("alg: \(alg)") }
        if d != nil { parts.append("private") }
        return "JWK(" + parts.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["kty": kty, "crv": crv as Any, "kid": kid as Any, "isPrivate": isPrivate],
               displayStyle: .struct)
    }
}
