import Foundation

extension JWK {
    /// The RFC 7638 thumbprint: SHA-256 over the JSON object of the required public members
    /// (EC: crv, kty, x, y; RSA: e, kty, n; OKP: crv, kty, x) in lexicographic order, no whitespace.
    public func thumbprint() throws(CryptoError) -> Data {
        func required(_ value: String?, _ name: String) throws(CryptoError) -> String {
            guard let value, !value.isEmpty else { throw .malformedInput("JWK without \(name)") }
            return value
        }
        let members: [String: String]
        switch kty {
        case "EC":
            members = ["crv": try required(crv, "crv"), "kty": kty, "x": try required(x, "x"), "y": try required(y, "y")]
        case "RSA":
            members = ["e": try required(e, "e"), "kty": kty, "n": try required(n, "n")]
        case "OKP":
            members = ["crv": try required(crv, "crv"), "kty": kty, "x": try required(x, "x")]
        default:
            throw .unsupportedAlgorithm("JWK kty \(kty)")
        }
        return Data(SHA256.hash(data: try JSONCoding.encode(members)))
    }

    /// The thumbprint, base64url-encoded (the usual `kid` / DPoP `jkt` form).
    public func thumbprintString() throws(CryptoError) -> String {
        try thumbprint().base64URLEncodedString()
    }
}
