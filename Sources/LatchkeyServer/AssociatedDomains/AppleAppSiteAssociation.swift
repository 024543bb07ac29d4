import Foundation

/// The server's `apple-app-site-association` file: which apps may use the passkeys (shared web credentials) of the
/// domain the server answers for, so an iOS app whose entitlement lists `webcredentials:<that domain>` can create and
/// use passkeys for it.
///
/// `GET /.well-known/apple-app-site-association` answers `{"webcredentials":{"apps":["TEAMID.bundle.id", ...]}}` with
/// `Content-Type: application/json`, directly (Apple follows no redirect for this file). With no app configured it
/// answers 404 `not_found`: the route is always in the table, so the route list and the API document do not depend
/// on the configuration. Apple's CDN (or, for an entitlement with `?mode=developer`, the device) fetches the file
/// over HTTPS from `https://<domain>/.well-known/…`: put a TLS front (a reverse proxy) before `latchkey serve`.
public struct AppleAppSiteAssociation: Sendable {
    /// The route's path.
    public static let path = "/.well-known/apple-app-site-association"

    /// The apps listed under `webcredentials`, each once, in the order given.
    public let webCredentialApps: [AppleAppID]

    /// The file for `webCredentialApps` (repetitions are dropped).
    public init(webCredentialApps: [AppleAppID]) {
        var seen = Set<AppleAppID>()
        self.webCredentialApps = webCredentialApps.filter { seen.insert($0).inserted }
    }

    struct Document: Encodable {
        struct WebCredentials: Encodable {
            var apps: [String]
        }
        var webcredentials: WebCredentials
    }

    /// The answer to `GET`: the JSON file, or 404 when no app is configured.
    public var response: HTTPResponse {
        guard !webCredentialApps.isEmpty else {
            return .error(status: 404, code: "not_found",
                          description: "No app is associated with this server (latchkey serve --apple-app-id).")
        }
        return .json(Document(webcredentials: .init(apps: webCredentialApps.map(\.description))))
    }

    /// The route, answered on the server's thread (the file does not change while the server runs).
    public var route: SynchronousRoute {
        let response = response
        return SynchronousRoute("GET", Self.path) { _ in response }
    }
}
