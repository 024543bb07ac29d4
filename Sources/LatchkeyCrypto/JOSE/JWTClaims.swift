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
    public subscript(claim name: String) -> JSONValue? { jsonObject[name] }

    /// Parses a claims set; registered claims of the wrong JSON type are malformed.
    public init(json: Data) throws(CryptoError) {
        try self.init(object: JSONCoding.object(from: json))
    }

    init(object: [String: JSONValue]) throws(CryptoError) {
        func string(_ key: String) throws(CryptoError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else { throw .malformedInput("claim \(key) is not a string") }
            return text
        }
        func date(_ key: String) throws(CryptoError) -> Date? {
            guard let value = object[key] else { return nil }
            guard let seconds = value.doubleValue, seconds.isFinite else { throw .malformedInput("claim \(key) is not a NumericDate") }
            return Date(timeIntervalSince1970: seconds)
        }
        var audience: [String]?
        switch object["aud"] {
        case nil: audience = nil
        case let .string(one)?: audience = [one]
        case let .array(many)?:
            audience = []
            for item in many {
                guard let text = item.stringValue else { throw .malformedInput("claim aud is not a string array") }
                audience?.append(text)
            }
        default: throw .malformedInput("claim aud is not a string or array")
        }
        self.init(iss: try string("iss"), sub: try string("sub"), aud: audience, exp: try date("exp"),
                  nbf: try date("nbf"), iat: try date("iat"), jti: try string("jti"),
                  extra: object.filter { !Self.registered.contains($0.key) })
    }

    /// All claims as one JSON object.
    public var jsonObject: [String: JSONValue] {
        var object = extra
        func numeric(_ date: Date) -> JSONValue {
            let t = date.timeIntervalSince1970
            return t.rounded() == t && abs(t) < 9e15 ? .integer(Int64(t)) : .number(t)
        }
        if let iss { object["iss"] = .string(iss) }
        if let sub { object["sub"] = .string(sub) }
        if let aud { object["aud"] = aud.count == 1 ? .string(aud[0]) : .array(aud.map(JSONValue.string)) }
        if let exp { object["exp"] = numeric(exp) }
        if let nbf { object["nbf"] = numeric(nbf) }
        if let iat { object["iat"] = numeric(iat) }
        if let jti { object["jti"] = .string(jti) }
        return object
    }

    public init(from decoder: any Decoder) throws {
        let object = try decoder.singleValueContainer().decode([String: JSONValue].self)
        do { try self.init(object: object) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(jsonObject)
    }
}
