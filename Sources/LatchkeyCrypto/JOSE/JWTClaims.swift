import Foundation

/// The claims of a JWT (RFC 7519 §4.1) plus every other claim as JSON.
///
/// `aud` may be a string or an array in the token; it is always an array here (one audience is
/// encoded back as a string). NumericDates accept integers and fractions and encode as integers when whole.
public struct JWTClaims: Codable, Sendable, Hashable {
    public var iss: String?
    public var sub: String?
    public var aud: [String]?
    public var exp: Date?
    public var nbf: Date?
    public var iat: Date?
    public var jti: String?
    /// Every claim that is not one of the registered ones above.
    public var extra: [String: JSONValue]

    public init(iss: String? = nil, sub: String? = nil, aud: [String]? = nil, exp: Date? = nil, nbf: Date? = nil,
                iat: Date? = nil, jti: String? = nil, extra: [String: JSONValue] = [:]) {
        self.iss = iss; self.sub = sub; self.aud = aud; self.exp = exp; self.nbf = nbf; self.iat = iat
        self.jti = jti; self.extra = extra.filter { !Self.registered.contains($0.key) }
    }

    static let registered: Set<String> = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"]

    /// Any claim by name, registered or not.
    public subscript(claim name: String) -> JSONValue? {
        switch name {
        case "iss": iss.map(JSONValue.string)
        case "sub": sub.map(JSONValue.string)
        case "jti": jti.map(JSONValue.string)
        case "exp": exp.map(Self.numeric)
        case "nbf": nbf.map(Self.numeric)
        case "iat": iat.map(Self.numeric)
        case "aud": aud.map { $0.count == 1 ? .string($0[0]) : .array($0.map(JSONValue.string)) }
        default: extra[name]
        }
    }

    /// Parses a claims set; registered claims of the wrong JSON type are malformed.
    ///
    /// The usual flat claims set (strings without escapes, numeric dates, an array of strings for `aud`) is
    /// read by `FlatJSONObject`; anything else, including every claims set that would be malformed, goes
    /// through `JSONDecoder` as it always did.
    public init(json: Data) throws(CryptoError) {
        if let fast = Self.fast(json) {
            self = fast
            return
        }
        // A repeated claim name is refused (RFC 7519 §4: reject, or keep the last; Foundation would keep the first).
        guard JSONTextCheck.problem(in: json, maximumDepth: JSONTextCheck.joseDepth) == nil else { throw .malformedInput("JWT claims") }
        do { self = try JSONDecoder().decode(JWTClaims.self, from: json) } catch { throw .malformedInput("JWT claims") }
    }

    /// The claims of a flat object whose registered claims have their expected types, else nil.
    private static func fast(_ json: Data) -> JWTClaims? {
        guard let object = FlatJSONObject(json) else { return nil }
        var claims = JWTClaims()
        for (name, value) in object.members {
            switch name {
            case "iss": guard case let .string(v) = value else { return nil }; claims.iss = v
            case "sub": guard case let .string(v) = value else { return nil }; claims.sub = v
            case "jti": guard case let .string(v) = value else { return nil }; claims.jti = v
            case "exp": guard let v = numericDate(value) else { return nil }; claims.exp = v
            case "nbf": guard let v = numericDate(value) else { return nil }; claims.nbf = v
            case "iat": guard let v = numericDate(value) else { return nil }; claims.iat = v
            case "aud":
                switch value {
                case let .string(v): claims.aud = [v]
                case let .array(elements):
                    var audiences: [String] = []
                    for element in elements {
                        guard case let .string(v) = element else { return nil }
                        audiences.append(v)
                    }
                    claims.aud = audiences
                default: return nil
                }
            default:
                if case .number = value { return nil } // integer or double: JSONDecoder's call
                if case let .array(elements) = value, elements.contains(where: { if case .number = $0 { true } else { false } }) {
                    return nil
                }
                claims.extra[name] = value
            }
        }
        return claims
    }

    /// A NumericDate as JSONDecoder reads it (`Double`), from an integer or any other finite number.
    private static func numericDate(_ value: JSONValue) -> Date? {
        switch value {
        case let .integer(v): Date(timeIntervalSince1970: Double(v))
        case let .number(v): Date(timeIntervalSince1970: v)
        default: nil
        }
    }

    /// A NumericDate as JSON: an integer when whole.
    static func numeric(_ date: Date) -> JSONValue {
        let t = date.timeIntervalSince1970
        return t.rounded() == t && abs(t) < 9e15 ? .integer(Int64(t)) : .number(t)
    }

    /// All claims as one JSON object.
    public var jsonObject: [String: JSONValue] {
        var object = extra
        let numeric = Self.numeric
        if let iss { object["iss"] = .string(iss) }
        if let sub { object["sub"] = .string(sub) }
        if let aud { object["aud"] = aud.count == 1 ? .string(aud[0]) : .array(aud.map(JSONValue.string)) }
        if let exp { object["exp"] = numeric(exp) }
        if let nbf { object["nbf"] = numeric(nbf) }
        if let iat { object["iat"] = numeric(iat) }
        if let jti { object["jti"] = .string(jti) }
        return object
    }

    /// Decodes a JSON object: registered claims typed (a NumericDate is any finite number, `aud` a
    /// string or an array of strings), every other claim as JSON.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        func date(_ key: AnyCodingKey) throws -> Date {
            let seconds = try c.decode(Double.self, forKey: key)
            guard seconds.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "NumericDate is not finite")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        var extra: [String: JSONValue] = [:]
        for key in c.allKeys {
            switch key.stringValue {
            case "iss": iss = try c.decode(String.self, forKey: key)
            case "sub": sub = try c.decode(String.self, forKey: key)
            case "jti": jti = try c.decode(String.self, forKey: key)
            case "exp": exp = try date(key)
            case "nbf": nbf = try date(key)
            case "iat": iat = try date(key)
            case "aud":
                if let one = try? c.decode(String.self, forKey: key) { aud = [one] }
                else { aud = try c.decode([String].self, forKey: key) }
            default: extra[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
            }
        }
        self.extra = extra
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(jsonObject)
    }
}
