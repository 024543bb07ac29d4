import Foundation

/// Headers every response gets unless the handler set them itself.
public enum SecurityHeaders {
    /// The Content-Security-Policy given to HTML pages that do not set their own.
    public static let htmlPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Adds `X-Content-Type-Options: nosniff` everywhere, `Cache-Control: no-store` on JSON, and a strict
    /// CSP, `X-Frame-Options: DENY` and `Referrer-Policy: no-referrer` on HTML.
    public static func apply(to response: inout HTTPResponse) {
        func add(_ name: String, _ value: String) {
            if response.header(name) == nil { response.headers.append((name: name, value: value)) }
        }
        add("X-Content-Type-Options", "nosniff")
        let type = response.header("Content-Type").map(asciiLowercased) ?? ""
        if type.hasPrefix("application/json") {
            add("Cache-Control", "no-store")
        } else if type.hasPrefix("text/html") {
            add("Content-Security-Policy", htmlPolicy)
            add("X-Frame-Options", "DENY")
            add("Referrer-Policy", "no-referrer")
        }
    }
}
