import Foundation
import LatchkeyCrypto

/// The JOSE header of an access token.
struct AccessTokenHeader: Codable, Sendable, Equatable {
    var alg: String
    var typ: String?
    var kid: String?
}

/// Access tokens as JWS compact serialization (RFC 7515 §7.1): the signature is LatchkeyCrypto's ES256,
/// verification is LatchkeyCrypto's `JWT.verify`; `split` only peeks at an unverified header (for the `kid`).
enum AccessTokenCodec {
    /// Longest token accepted for parsing (a real one is ≈ 600 bytes).
    static let maximumLength = 8192

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The encoded protected header of tokens signed by `kid`: base64url of
    /// `{"alg":"ES256","kid":…,"typ":"at+jwt"}`. Computed once per key (see `SigningKeyRing`).
    static func headerPrefix(kid: String) throws -> String {
        try encoder.encode(AccessTokenHeader(alg: "ES256", typ: "at+jwt", kid: kid)).base64URLEncodedString()
    }

    /// JWS compact serialization (RFC 7515 §7.1) with LatchkeyCrypto's ES256 signature (raw r||s, the JOSE
    /// form); the claims are encoded once with a shared encoder. Tokens are verified by `JWT.verify`.
    static func sign(_ claims: AccessTokenClaims, headerPrefix: String, key: P256.Signing.PrivateKey) throws -> String {
        let input = headerPrefix + "." + payload(claims).base64URLEncodedString()
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + signature.rawRepresentation.base64URLEncodedString()
    }

    /// The claims as compact JSON with sorted keys and unescaped slashes — the bytes `encoder` writes for
    /// them, built directly (JSONEncoder was a tenth of a refresh's cost).
    static func payload(_ c: AccessTokenClaims) -> Data {
        var out = JSONObjectWriter(capacity: 288 + c.iss.utf8.count + c.scope.utf8.count)
        if let amr = c.amr { out.member("amr", amr) }
        out.member("aud", c.aud)
        if let authTime = c.authTime { out.member("auth_time", authTime) }
        out.member("client_id", c.clientID)
        out.member("exp", c.exp)
        out.member("iat", c.iat)
        out.member("iss", c.iss)
        out.member("jti", c.jti)
        out.member("scope", c.scope)
        out.member("sid", c.sid)
        out.member("sub", c.sub)
        return out.finish()
    }

    /// The three decoded parts, unverified.
    struct Parts {
        var header: AccessTokenHeader
        var signingInput: Substring
        var payload: Data
        var signature: Data
    }

    static func split(_ token: String) -> Parts? {
        guard token.utf8.count <= maximumLength else { return nil }
        // Split at the `.` bytes (a `.` followed by a combining mark is still a separator).
        let pieces = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let headerData = Data(base64URLEncoded: Substring(pieces[0])),
              let payload = Data(base64URLEncoded: Substring(pieces[1])),
              let signature = Data(base64URLEncoded: Substring(pieces[2])),
              let header = try? JSONDecoder().decode(AccessTokenHeader.self, from: headerData)
        else { return nil }
        let signingInput = Substring(token.utf8[token.utf8.startIndex..<pieces[1].endIndex])
        return Parts(header: header, signingInput: signingInput, payload: payload, signature: signature)
    }
}
