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
        var out = [UInt8]()
        out.reserveCapacity(256 + c.iss.utf8.count + c.scope.utf8.count)
        func member(_ name: StaticString, _ first: Bool = false) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0c: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0a: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0d: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(hex[Int(byte >> 4)]); out.append(hex[Int(byte & 0xf)])
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func integer(_ value: Int64) { out.append(contentsOf: String(value).utf8) }
        member("aud", true); string(c.aud)
        member("client_id"); string(c.clientID)
        member("exp"); integer(c.exp)
        member("iat"); integer(c.iat)
        member("iss"); string(c.iss)
        member("jti"); string(c.jti)
        member("scope"); string(c.scope)
        member("sid"); string(c.sid)
        member("sub"); string(c.sub)
        out.append(UInt8(ascii: "}"))
        return Data(out)
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
