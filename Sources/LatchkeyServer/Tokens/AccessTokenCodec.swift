import Foundation
import LatchkeyCrypto

/// The JOSE header of an access token.
struct AccessTokenHeader: Codable, Sendable, Equatable {
    var alg: String
    var typ: String?
    var kid: String?
}

/// JWS compact serialization of access tokens (RFC 7515 §7.1) with ES256 signatures from LatchkeyCrypto
/// (raw r||s, the JOSE form). Only the byte layout lives here; the signature is OpenSSL's.
enum AccessTokenCodec {
    /// Longest token accepted for parsing (a real one is ≈ 600 bytes).
    static let maximumLength = 8192

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func sign(_ claims: AccessTokenClaims, kid: String, key: P256.Signing.PrivateKey) throws -> String {
        let header = try encoder.encode(AccessTokenHeader(alg: "ES256", typ: "at+jwt", kid: kid))
        let payload = try encoder.encode(claims)
        let signingInput = header.base64URLEncodedString() + "." + payload.base64URLEncodedString()
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString()
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
