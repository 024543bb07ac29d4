import Foundation

/// A JWS protected header. `alg` is always one of the supported algorithms; other members are kept.
public struct JWSHeader: Sendable, Hashable {
    /// The signature algorithm.
    public var alg: JWSAlgorithm
    /// The key ID.
    public var kid: String?
    /// The media type of the whole token ("JWT", "at+jwt").
    public var typ: String?
    /// The media type of the payload.
    public var cty: String?
    /// Every other member (for example `x5c`, `jku`), never interpreted by LatchkeyCrypto.
    public var additional: [String: JSONValue]
    /// The exact header bytes when the header was parsed from a token.
    public internal(set) var rawJSON: Data?

    /// A header to sign with.
    public init(alg: JWSAlgorithm, kid: String? = nil, typ: String? = nil, cty: String? = nil,
                additional: [String: JSONValue] = [:]) {
        self.alg = alg; self.kid = kid; self.typ = typ; self.cty = cty
        self.additional = additional.filter { !Self.registered.contains($0.key) }
        self.rawJSON = nil
    }

    /// Any member by name, including `alg`, `kid`, `typ` and `cty`.
    public subscript(member: String) -> JSONValue? {
        switch member {
        case "alg": .string(alg.rawValue)
        case "kid": kid.map(JSONValue.string)
        case "typ": typ.map(JSONValue.string)
        case "cty": cty.map(JSONValue.string)
        default: additional[member]
        }
    }

    static let registered: Set<String> = ["alg", "kid", "typ", "cty"]

    /// Parses a header: a JSON object with a supported `alg`, string `kid`/`typ`/`cty`, and no `crit`
    /// (no extension is understood, so RFC 7515 §4.1.11 requires rejecting any).
    init(json: Data) throws(CryptoError) {
        let parsed: Parsed
        if let fast = Parsed(flat: json) {
            parsed = fast
        } else {
            // A repeated name is refused (RFC 7515 §4: reject, or keep the last; Foundation would keep the first).
            guard JSONTextCheck.problem(in: json, maximumDepth: JSONTextCheck.joseDepth) == nil else { throw .malformedInput("JWS header") }
            do { parsed = try JSONDecoder().decode(Parsed.self, from: json) } catch { throw .malformedInput("JWS header") }
        }
        guard let name = parsed.alg else { throw .malformedInput("JWS header without alg") }
        guard let alg = JWSAlgorithm(rawValue: name) else { throw .unsupportedAlgorithm(name) }
        if parsed.additional["crit"] != nil { throw .unsupportedAlgorithm("crit") }
        self.alg = alg
        self.kid = parsed.kid
        self.typ = parsed.typ
        self.cty = parsed.cty
        self.additional = parsed.additional
        self.rawJSON = json
    }

    /// The registered members typed (a wrong JSON type fails), every other member as JSON.
    private struct Parsed: Decodable {
        var alg, kid, typ, cty: String?
        var additional: [String: JSONValue] = [:]

        /// The usual flat header through `FlatJSONObject`; nil (use JSONDecoder) for anything else or a
        /// registered member that is not a string.
        init?(flat json: Data) {
            guard let object = FlatJSONObject(json) else { return nil }
            for (name, value) in object.members {
                switch name {
                case "alg", "kid", "typ", "cty":
                    guard case let .string(v) = value else { return nil }
                    switch name {
                    case "alg": alg = v
                    case "kid": kid = v
                    case "typ": typ = v
                    default: cty = v
                    }
                default:
                    if case .number = value { return nil } // integer or double: JSONDecoder's call
                    if case let .array(elements) = value, elements.contains(where: { if case .number = $0 { true } else { false } }) {
                        return nil
                    }
                    additional[name] = value
                }
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            for key in c.allKeys {
                switch key.stringValue {
                case "alg": alg = try c.decode(String.self, forKey: key)
                case "kid": kid = try c.decode(String.self, forKey: key)
                case "typ": typ = try c.decode(String.self, forKey: key)
                case "cty": cty = try c.decode(String.self, forKey: key)
                default: additional[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
                }
            }
        }
    }

    /// Compact JSON of the header.
    func encoded() throws(CryptoError) -> Data {
        var object = additional
        object["alg"] = .string(alg.rawValue)
        if let kid { object["kid"] = .string(kid) }
        if let typ { object["typ"] = .string(typ) }
        if let cty { object["cty"] = .string(cty) }
        return try JSONCoding.encode(object)
    }
}
