import Foundation

/// The sign-in page `latchkey serve` offers at `/`: plain HTML, CSS and JavaScript (no framework, no
/// CDN) for passkeys and passwords. The files ship as package resources and are read once.
public struct WebPage: Sendable {
    struct Asset: Sendable {
        let path: String
        let contentType: String
        let body: Data
    }

    let assets: [Asset]

    static let files: [(route: String, file: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "style.css", "text/css; charset=utf-8"),
    ]

    /// Loads the page from the package's resources; nil when they are missing from this build.
    public init?(directory: URL? = nil) {
        // On Linux the bundle's resource URL is already its `Resources` folder; on Apple platforms it is
        // the folder that holds the copied `Resources`.
        let bundled = Bundle.module.resourceURL.flatMap { root in
            [root.appendingPathComponent("web"), root.appendingPathComponent("Resources/web")].first {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path)
            }
        }
        guard let base = directory ?? bundled else { return nil }
        var assets: [Asset] = []
        for f in Self.files {
            guard let body = try? Data(contentsOf: base.appendingPathComponent(f.file)) else { return nil }
            assets.append(Asset(path: f.route, contentType: f.type, body: body))
        }
        self.assets = assets
    }

    /// GET routes for the page and its script and style sheet.
    public func routes() -> [Route] {
        assets.map { asset in
            let response = HTTPResponse(status: 200, headers: [("Content-Type", asset.contentType),
                                                                ("Cache-Control", "no-cache")], body: asset.body)
            return Route("GET", asset.path) { _ in response }
        }
    }
}
