import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP calls the server makes to Apple, behind a protocol so tests can count them.
public protocol AppleHTTPClient: Sendable {
    func get(_ url: URL) async throws -> (status: Int, body: Data)
    func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> (status: Int, body: Data)
}

/// `AppleHTTPClient` over URLSession with short timeouts.
public struct URLSessionAppleHTTPClient: AppleHTTPClient {
    let session: URLSession

    public init(timeout: TimeInterval = 10) {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.httpCookieStorage = nil
        config.urlCache = nil
        session = URLSession(configuration: config)
    }

    public func get(_ url: URL) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return try await send(request)
    }

    public func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(Self.formEncode(fields).utf8)
        return try await send(request)
    }

    func send(_ request: URLRequest) async throws -> (status: Int, body: Data) {
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// application/x-www-form-urlencoded (RFC 6749 Appendix B).
    public static func formEncode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }
}
