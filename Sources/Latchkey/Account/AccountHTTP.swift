import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request to the account API of a Latchkey server and its answer: JSON in and out, the Bearer when given.
struct AccountHTTP: Sendable {
    let baseURL: URL
    let session: URLSession

    struct Answer: Sendable {
        var status: Int
        var wwwAuthenticate: String?
        var body: Data

        /// The `error` / `error_description` of the server's Error body, when it sent one.
        var serverError: (code: String, description: String?)? {
            guard let body = try? JSONDecoder().decode(StepUpChallenge.ErrorBody.self, from: self.body) else { return nil }
            return (body.error, body.errorDescription)
        }

        /// `.rejected` with the server's error code and description.
        var rejection: AccountManagerError {
            let reason = serverError
            return .rejected(status: status, error: reason?.code ?? "http_\(status)", description: reason?.description)
        }

        func decode<T: Decodable>(_ type: T.Type, _ what: String) throws(AccountManagerError) -> T {
            do { return try JSONDecoder().decode(type, from: body) } catch { throw .badResponse(what) }
        }
    }

    func send(_ method: String, _ path: String, json: (any Encodable & Sendable)? = nil,
              bearer: String?) async throws(AccountManagerError) -> Answer {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do { request.httpBody = try JSONEncoder().encode(json) } catch { throw .badResponse("encoding \(path)") }
        }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            if error is CancellationError || (error as? URLError)?.code == .cancelled { throw .canceled }
            throw .network(error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { throw .badResponse("not an HTTP response") }
        return Answer(status: http.statusCode, wwwAuthenticate: http.value(forHTTPHeaderField: "WWW-Authenticate"),
                      body: data)
    }
}

/// An instant as the server writes it: Unix seconds (a number) or an ISO 8601 string.
struct ServerInstant: Decodable, Sendable {
    var date: Date

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            date = Date(timeIntervalSince1970: seconds)
        } else if let date = ISO8601.date(from: try container.decode(String.self)) {
            self.date = date
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an instant")
        }
    }
}
