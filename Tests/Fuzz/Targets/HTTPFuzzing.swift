import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeyWebAuthn

/// The HTTP request path, twice: the input is raw bytes of one or more HTTP/1.1 requests.
///
/// 1. Through the real server (`HTTPServerHarness`): libmicrohttpd frames the bytes (request line, headers,
///    Content-Length and chunked bodies, pipelining), the server's edge checks them, and the route table below
///    answers. Properties: the bytes that come back are well-formed answers and nothing else (`HTTPAnswerStream`:
///    one header block per answer, bodies of their declared length); each is 200/400/404/405/413/414/415/431/501/505
///    (or 100 Continue); every error carries the JSON `Error` body as `application/json` (libmicrohttpd's own
///    answers included), 405 names `Allow`, every answer has `X-Content-Type-Options`.
/// 2. In process, faster: the request split the way libmicrohttpd hands it over (method, unescaped path, query
///    arguments, headers, body), routed by a `Router` with the same table, and decoded the way the routes decode
///    bodies (`decodeJSON` into the body types, `decodeForm`, the passkey responses' clientDataJSON / attestation
///    object / authenticator data). Properties: every answer is 2xx/400/404/405/415 with a JSON error body for
///    errors, 405 names `Allow`, and a form that decodes re-encodes to the same parameters.
enum HTTPFuzzing {
    /// `PasswordCredentials` of AuthRoutes (internal there): the same members and keys.
    struct PasswordCredentials: Decodable {
        var username: String
        var password: String
        var clientID: String?
        var scope: String?
        enum CodingKeys: String, CodingKey {
            case username, password, scope
            case clientID = "client_id"
        }
    }

    /// `RegistrationOptionsRequest` of PasskeyRoutes (internal there).
    struct RegistrationOptionsRequest: Decodable { var username: String? }

    static let router: Router = {
        func route(_ method: String, _ path: String, _ handle: @escaping @Sendable (HTTPRequest) throws(HTTPRequestError) -> Void) -> SynchronousRoute {
            SynchronousRoute(method, path) { request in
                do throws(HTTPRequestError) { try handle(request) } catch { return error.response }
                return HTTPResponse(status: 200)
            }
        }
        let routes: [SynchronousRoute] = [
            .health,
            route("POST", "/v1/accounts") { r throws(HTTPRequestError) in _ = try r.decodeJSON(PasswordCredentials.self) },
            route("POST", "/v1/session/password") { r throws(HTTPRequestError) in
                if r.mediaType == "application/x-www-form-urlencoded" { try checkForm(try r.decodeForm()) }
                else { _ = try r.decodeJSON(PasswordCredentials.self) }
            },
            route("POST", "/v1/token") { r throws(HTTPRequestError) in try parameters(r) },
            route("POST", "/v1/revoke") { r throws(HTTPRequestError) in try parameters(r) },
            route("POST", "/v1/logout") { r throws(HTTPRequestError) in try parameters(r) },
            route("GET", "/v1/me") { r throws(HTTPRequestError) in _ = r.header("authorization") },
            route("GET", "/.well-known/jwks.json") { _ throws(HTTPRequestError) in },
            route("POST", "/v1/session/apple") { r throws(HTTPRequestError) in _ = try r.decodeJSON(AppleSignInRequest.self) },
            route("POST", "/v1/passkeys/register/options") { r throws(HTTPRequestError) in
                if !r.body.isEmpty { _ = try r.decodeJSON(RegistrationOptionsRequest.self) }
            },
            route("POST", "/v1/passkeys/register/verify") { r throws(HTTPRequestError) in
                let body = try r.decodeJSON(RegistrationResponse.self)
                _ = try? CollectedClientData.parse(body.response.clientDataJSON.data)
                _ = try? AttestationObject(body.response.attestationObject.data)
            },
            route("POST", "/v1/passkeys/authenticate/options") { _ throws(HTTPRequestError) in },
            route("POST", "/v1/passkeys/authenticate/verify") { r throws(HTTPRequestError) in
                let body = try r.decodeJSON(AuthenticationResponse.self)
                _ = try? CollectedClientData.parse(body.response.clientDataJSON.data)
                _ = try? AuthenticatorData(body.response.authenticatorData.data)
            },
            route("GET", "/v1/passkeys") { _ throws(HTTPRequestError) in },
            route("DELETE", "/v1/passkeys/:id") { r throws(HTTPRequestError) in _ = r.pathParameters["id"].flatMap { Data(base64URLEncoded: $0) } },
        ]
        return Router([], synchronous: routes)
    }()

    /// `AuthService.parameters`: JSON string members, or a form.
    static func parameters(_ request: HTTPRequest) throws(HTTPRequestError) {
        if request.mediaType == "application/json" { _ = try request.decodeJSON([String: String].self) }
        else { try checkForm(try request.decodeForm()) }
    }

    /// A decoded form, encoded again, decodes to the same parameters (trapped as a property violation by `run`).
    static func checkForm(_ form: [String: String]) throws(HTTPRequestError) {
        let text = form.map { "\(formEncode($0.key))=\(formEncode($0.value))" }.joined(separator: "&")
        let again = HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                body: Data(text.utf8))
        guard (try? again.decodeForm()) == form else { throw .malformedBody("form round trip") }
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        try runThroughServer(data)
        try runInProcess(data)
    }

    /// The statuses the real server may answer a fuzzed request with.
    static let serverStatuses: Set<Int> = [100, 200, 400, 404, 405, 413, 414, 415, 431, 501, 505]

    static func runThroughServer(_ data: Data) throws(FuzzPropertyViolation) {
        guard let server = HTTPServerHarness.server else { return }
        let received = HTTPServerHarness.exchange(data, port: server.port)
        HTTPServerHarness.waitUntilIdle(server)
        guard let received else { return }
        let stream = try HTTPAnswerStream(received, headAnswers: headRequests(in: data))
        for (number, answer) in stream.answers.enumerated() where answer.status >= 200 {
            let name = "answer \(number + 1) (\(answer.status))"
            try require(serverStatuses.contains(answer.status), .http, "unexpected status in \(name)")
            try require(answer.headers["x-content-type-options"] == "nosniff", .http, "\(name) without X-Content-Type-Options")
            if answer.status >= 400 {
                try require(answer.headers["content-type"] == "application/json", .http, "\(name) is not application/json")
                if !answer.bodyless {
                    let body = try? JSONDecoder().decode(HTTPErrorBody.self, from: answer.body)
                    try require(body != nil, .http, "\(name) without the JSON Error body")
                }
            }
            if answer.status == 405 { try require(answer.headers["allow"] != nil, .http, "\(name): 405 without Allow") }
        }
    }

    /// How many times `HEAD` occurs in `data`: at most that many answers are HEAD answers, without a body.
    static func headRequests(in data: Data) -> Int {
        let bytes = [UInt8](data)
        let head: [UInt8] = Array("HEAD".utf8)
        guard bytes.count >= head.count else { return 0 }
        var count = 0
        for start in 0...(bytes.count - head.count) where bytes[start] == head[0] && Array(bytes[start..<start + head.count]) == head {
            count += 1
        }
        return count
    }

    static func runInProcess(_ data: Data) throws(FuzzPropertyViolation) {
        guard let request = parse(data) else { return }
        let response: HTTPResponse
        switch router.resolve(request) {
        case .immediate(let answer): response = answer
        case .handler: throw FuzzPropertyViolation(.http, "an asynchronous route in the synchronous table")
        }
        if response.status >= 400,
           let body = try? response.decodeJSON(HTTPErrorBody.self), body.errorDescription == "form round trip" {
            throw FuzzPropertyViolation(.http, "a decoded form does not re-encode to the same parameters")
        }
        try require([200, 400, 404, 405, 415].contains(response.status), .http, "unexpected status \(response.status)")
        if response.status >= 400 {
            try require((try? response.decodeJSON(HTTPErrorBody.self)) != nil, .http, "an error answer without a JSON error body")
        }
        if response.status == 405 { try require(response.header("Allow") != nil, .http, "405 without Allow") }
        var secured = response
        SecurityHeaders.apply(to: &secured)
    }

    /// Splits a raw request as libmicrohttpd does before calling the access handler: request line, headers up
    /// to the empty line (names lowercased, repeated ones joined with ", "), the rest as the body; the path is
    /// percent-unescaped and the query split into arguments.
    static func parse(_ data: Data) -> HTTPRequest? {
        let bytes = [UInt8](data)
        var lines: [Substring] = []
        var bodyStart = bytes.count
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index
                if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = Substring(String(decoding: bytes[lineStart..<end], as: UTF8.self))
                lineStart = index + 1
                if line.isEmpty, !lines.isEmpty { bodyStart = lineStart; break }
                lines.append(line)
            }
            index += 1
        }
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(target[0]).removingPercentEncoding ?? String(target[0])
        var query: [String: String] = [:]
        if target.count > 1 {
            for argument in target[1].split(separator: "&") {
                let pair = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let unescape: (Substring) -> String = { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
                query[unescape(pair[0])] = pair.count > 1 ? unescape(pair[1]) : ""
            }
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        let body = bodyStart < bytes.count ? Data(bytes[bodyStart...]) : Data()
        return HTTPRequest(method: String(parts[0]), path: path, query: query, headers: headers, body: body)
    }

    static func seeds() -> [Data] {
        func request(_ method: String, _ target: String, _ type: String?, _ body: String) -> Data {
            var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            if let type { text += "Content-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n" }
            return Data((text + "\r\n" + body).utf8)
        }
        let json = "application/json", form = "application/x-www-form-urlencoded"
        let clientData = Data(#"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com"}"#.utf8).base64URLEncodedString()
        let authData = Data(count: 37).base64URLEncodedString()
        return [
            request("GET", "/healthz", nil, ""),
            request("POST", "/v1/accounts", json, #"{"username":"alice","password":"correct horse battery"}"#),
            request("POST", "/v1/session/password", form, "username=alice&password=p%40ss+word&client_id=app"),
            request("POST", "/v1/token", form, "grant_type=refresh_token&refresh_token=abc"),
            request("POST", "/v1/token", json, #"{"grant_type":"refresh_token","refresh_token":"abc"}"#),
            request("POST", "/v1/revoke", form, "token=abc&token_type_hint=refresh_token"),
            request("GET", "/v1/me?x=1&y=%20z", nil, ""),
            request("HEAD", "/.well-known/jwks.json", nil, ""),
            request("POST", "/v1/session/apple", json, #"{"identity_token":"a.b.c","raw_nonce":"n","user":{"name":{"firstName":"A"}}}"#),
            request("POST", "/v1/passkeys/register/options", json, #"{"username":"alice"}"#),
            request("POST", "/v1/passkeys/authenticate/verify", json,
                    #"{"id":"AQI","rawId":"AQI","type":"public-key","response":{"clientDataJSON":"\#(clientData)","authenticatorData":"\#(authData)","signature":"MEQ"}}"#),
            request("DELETE", "/v1/passkeys/AQID", nil, ""),
            request("PUT", "/v1/accounts", json, "{}"),
        ]
    }
}
