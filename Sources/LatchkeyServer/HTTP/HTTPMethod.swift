/// Request methods at the edge. Method names are case-sensitive (RFC 9110 §9.1): `get` is not `GET`, and a server
/// that does not recognize a method answers 501 (§15.6.2), before any routing.
enum HTTPMethod {
    /// RFC 9110's methods, PATCH (RFC 5789) and QUERY (the IETF's safe method with a body, which API tools such as
    /// schemathesis send): the ones a route may answer or refuse with 405 and `Allow`.
    static let recognized: [String] = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "QUERY"]

    /// Whether `method` is one of `recognized`, spelled exactly.
    static func isRecognized(_ method: String) -> Bool {
        recognized.contains { $0.utf8.elementsEqual(method.utf8) }
    }
}
