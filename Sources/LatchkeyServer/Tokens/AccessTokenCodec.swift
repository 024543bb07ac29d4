import Foundation
import LatchkeyCrypto

/// The JOSE header of an access token.
struct AccessTokenHeader: Codable, Sendable, Equatable {
    var alg: String
    var typ: String?
    var kid: String?
}

/// Access tokens as JWS compact serialization (RFC 7515 §7.1): signing and verification are
/// LatchkeyCrypto's `JWT`; `split` only peeks at an unverified header (for the `kid` to look up).
enum AccessTokenCodec {
    /// Longest token accepted for parsing (a real one is ≈ 600 bytes).
    static let maximumLength = 8192

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Signs with LatchkeyCrypto's `JWS.sign` (header `{"alg":"ES256","kid":…,"typ":"at+jwt"}`); the claims
    /// are encoded once with a shared encoder (they are always a JSON object).
    static func sign(_ claims: AccessTokenClaims, kid: String, key: P256.Signing.PrivateKey) throws -> String {
        try JWS.sign(payload: try encoder.encode(claims), header: JWSHeader(alg: .ES256, kid: kid, typ: "at+jwt"), key: .p256(key))
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
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let headerData = Data(base64URLEncoded: pieces[0]),
              let payload = Data(base64URLEncoded: pieces[1]),
              let signature = Data(base64URLEncoded: pieces[2]),
              let header = try? JSONDecoder().decode(AccessTokenHeader.self, from: headerData)
        else { return nil }
        let end = token.index(token.startIndex, offsetBy: pieces[0].count + 1 + pieces[1].count)
        return Parts(header: header, signingInput: token[token.startIndex..<end], payload: payload, signature: signature)
    }
}
