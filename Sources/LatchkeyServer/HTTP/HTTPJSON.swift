import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// The JSON encoder and decoder shared by every request (configured once; both are thread-safe).
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    static let decoder = JSONDecoder()
}

/// The body of every error answer: `{"error":"invalid_request","error_description":"..."}` (RFC 6749 §5.2 style).
public struct HTTPErrorBody: Codable, Sendable, Equatable {
    public var error: String
    public var errorDescription: String?
    /// With `insufficient_user_authentication`: the largest `auth_time` age the operation accepts (RFC 9470).
    public var maxAge: Int64?

    public init(error: String, errorDescription: String? = nil, maxAge: Int64? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.maxAge = maxAge
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case maxAge = "max_age"
    }
}

extension HTTPResponse {
    /// A JSON response (`Content-Type: application/json`, `Cache-Control: no-store`), encoded with the shared encoder.
    /// A value that cannot be encoded yields a 500 error response.
    public static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        guard let body = try? JSONCoding.encoder.encode(value) else {
            return .error(status: 500, code: "server_error", description: "The response could not be encoded.")
        }
        return json(body: body, status: status)
    }

    /// A response with a JSON body already encoded (`Cache-Control: no-store`, as every JSON answer here).
    static func json(body: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [
            (name: "Content-Type", value: "application/json"),
            (name: "Cache-Control", value: "no-store"),
        ], body: body)
    }

    /// A JSON error response with the body `{"error": code, "error_description": description}`.
    public static func error(status: Int, code: String, description: String? = nil) -> HTTPResponse {
        json(HTTPErrorBody(error: code, errorDescription: description), status: status)
    }

    /// Decodes a JSON body (for clients and tests).
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONCoding.decoder.decode(type, from: body)
    }
}

/// Why a request body could not be read; `response` is the answer to send back (415 or 400).
public enum HTTPRequestError: Error, Sendable, Equatable {
    /// The `Content-Type` is not the one the endpoint takes (→ 415).
    case unsupportedMediaType(expected: String)
    /// The body is empty, not valid JSON, or does not have the expected shape (→ 400).
    case malformedBody(String)

    /// The HTTP answer for this error, with a JSON error body.
    public var response: HTTPResponse {
        switch self {
        case .unsupportedMediaType(let expected):
            return .error(status: 415, code: "invalid_request", description: "Content-Type must be \(expected).")
        case .malformedBody(let reason):
            return .error(status: 400, code: "invalid_request", description: reason)
        }
    }
}

extension HTTPRequestError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .unsupportedMediaType(let expected):
            return language.pick(english: "The request body must be \(expected).",
                                 korean: "요청 본문은 \(expected) 형식이어야 합니다.")
        case .malformedBody(let reason):
            return language.pick(english: "The request body is malformed: \(reason)",
                                 korean: "요청 본문이 올바르지 않습니다: \(reason)")
        }
    }
}

extension HTTPRequest {
    /// The media type of the body, lowercased, without parameters (`application/json`).
    public var mediaType: String? {
        guard let value = header("content-type") else { return nil }
        // Split on the byte: `String.split` walks grapheme clusters, a few microseconds per request here.
        let end = value.utf8.firstIndex(of: UInt8(ascii: ";")) ?? value.utf8.endIndex
        return asciiLowercased(trimmingOptionalWhitespace(value[..<end]))
    }

    /// Decodes the JSON body; in a handler:
    /// `do throws(HTTPRequestError) { let body = try request.decodeJSON(Login.self) ... } catch { return error.response }`.
    /// Wrong or missing `Content-Type`, or a `charset` parameter other than `utf-8` → `.unsupportedMediaType` (415);
    /// empty, malformed or wrongly shaped JSON, text that is not UTF-8 (a byte order mark, UTF-16, UTF-32), nesting
    /// deeper than `maximumJSONDepth` or a member name given twice in one object (`JSONTextCheck`) →
    /// `.malformedBody` (400). Never echoes body content.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws(HTTPRequestError) -> T {
        guard mediaType == "application/json", charsetIsUTF8 else { throw .unsupportedMediaType(expected: "application/json") }
        guard !body.isEmpty else { throw .malformedBody("The body is empty.") }
        switch JSONTextCheck.problem(in: body, maximumDepth: HTTPRequest.maximumJSONDepth) {
        case nil: break
        case .notUTF8: throw .malformedBody("The JSON body is not UTF-8 (RFC 8259 §8.1).")
        case .tooDeep(let limit): throw .malformedBody("The JSON nests deeper than \(limit) levels.")
        case .duplicateMember:
            throw .malformedBody("An object has the same member name twice.")
        }
        do {
            return try JSONCoding.decoder.decode(type, from: body)
        } catch let error as DecodingError {
            throw .malformedBody(HTTPRequest.describe(error))
        } catch let error as any LocalizedError {
            // A value type's own check (e.g. WebAuthn's base64url fields) names the field itself.
            throw .malformedBody(error.errorDescription ?? "The body is not valid JSON.")
        } catch {
            throw .malformedBody("The body is not valid JSON.")
        }
    }

    /// Decodes an `application/x-www-form-urlencoded` body (RFC 6749 token requests). A parameter given twice is
    /// rejected (RFC 6749 §3.2); wrong `Content-Type` → 415. With `names`, only those parameters are kept (and only
    /// they may not repeat): an endpoint ignores parameters it does not define, as RFC 6749 §3.1 asks; every pair
    /// must still be valid form encoding.
    public func decodeForm(keeping names: Set<String>? = nil) throws(HTTPRequestError) -> [String: String] {
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw .unsupportedMediaType(expected: "application/x-www-form-urlencoded")
        }
        guard let text = String(data: body, encoding: .utf8) else { throw .malformedBody("The body is not UTF-8.") }
        var result: [String: String] = [:]
        // `&` and `=` split the bytes (as the WHATWG form parser does), not grapheme clusters: cheaper, and an `&`
        // followed by a combining mark still separates pairs.
        for pair in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = HTTPRequest.formDecode(Substring(pair[..<(equals ?? pair.endIndex)])),
                  let value = HTTPRequest.formDecode(equals.map { Substring(pair[pair.index(after: $0)...]) } ?? "") else {
                throw .malformedBody("The form encoding is invalid.")
            }
            if let names, !names.contains(name) { continue }
            guard result[name] == nil else { throw .malformedBody("The parameter '\(name)' is repeated.") }
            result[name] = value
        }
        return result
    }

    /// The deepest nesting of arrays and objects a JSON body may have (no endpoint takes more than a few
    /// levels); deeper bodies are refused before the decoder sees them, so its recursion stays bounded.
    public static let maximumJSONDepth = 64

    /// Whether the `Content-Type` has no `charset` parameter or says `utf-8` (any case, quoted or not): JSON is
    /// UTF-8 (RFC 8259 §8.1), and a body declared as something else is a representation the server does not take.
    var charsetIsUTF8: Bool {
        guard let value = header("content-type"), value.utf8.contains(UInt8(ascii: ";")) else { return true }
        for parameter in value.utf8.split(separator: UInt8(ascii: ";")).dropFirst() {
            let text = Substring(parameter)
            let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) ?? text.utf8.endIndex
            guard asciiLowercased(trimmingOptionalWhitespace(text[..<equals])) == "charset" else { continue }
            var charset = equals < text.utf8.endIndex ? trimmingOptionalWhitespace(text[text.utf8.index(after: equals)...]) : ""
            if charset.utf8.count >= 2, charset.utf8.first == UInt8(ascii: "\""), charset.utf8.last == UInt8(ascii: "\"") {
                charset = String(charset.dropFirst().dropLast())
            }
            if asciiLowercased(charset) != "utf-8" { return false }
        }
        return true
    }

    /// One `application/x-www-form-urlencoded` name or value: `+` is a space, `%XX` a byte; nil when a `%` is
    /// not followed by two hex digits or the bytes are not UTF-8. Works on the UTF-8 bytes: the Foundation route
    /// cost a tenth of a refresh request.
    static func formDecode(_ text: Substring) -> String? {
        PercentEncoding.decode(text, plusIsSpace: true)
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ extra: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (extra.map { [$0] } ?? [])
            return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "The field '\(path(context, key))' is missing."
        case .typeMismatch(_, let context):
            return "The field '\(path(context))' has the wrong type."
        case .valueNotFound(_, let context):
            return "The field '\(path(context))' must not be null."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "The body is not valid JSON."
                : "The field '\(path(context))' has an invalid value."
        @unknown default:
            return "The body is not valid JSON."
        }
    }
}
