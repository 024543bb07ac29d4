import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// `/.well-known/apple-app-site-association`: application identifiers checked when the server starts, the file's exact
/// JSON and media type, 404 without apps, and `latchkey serve --apple-app-id` end to end.
@Suite("Apple app site association", .serialized, .offCooperativePool)
struct AppleAppSiteAssociationTests {
    @Test(arguments: ["A1B2C3D4E5.com.example.notes", "ZZZZZZZZZZ.a", "0123456789.com.example.notes-beta.Watch-App"])
    func appIDsAreAccepted(_ text: String) throws {
        let id = try AppleAppID(text)
        #expect(id.description == text)
        #expect(id.teamID.count == 10 && text == id.teamID + "." + id.bundleID)
    }

    @Test func appIDsAreRefusedWithTheReason() {
        let cases: [(String, AppleAppIDError)] = [
            ("com.example.notes", .invalidTeamID("com")),
            ("A1B2C3D4E5", .notAnAppID("A1B2C3D4E5")),
            (".com.example", .notAnAppID(".com.example")),
            ("", .notAnAppID("")),
            ("a1b2c3d4e5.com.example.notes", .invalidTeamID("a1b2c3d4e5")),
            ("A1B2C3D4E.com.example.notes", .invalidTeamID("A1B2C3D4E")),
            ("A1B2C3D4E56.com.example.notes", .invalidTeamID("A1B2C3D4E56")),
            ("A1B2C3D4É5.com.example", .invalidTeamID("A1B2C3D4É5")),
            ("A1B2C3D4E5.", .invalidBundleID("")),
            ("A1B2C3D4E5.com..notes", .invalidBundleID("com..notes")),
            ("A1B2C3D4E5.com.example.", .invalidBundleID("com.example.")),
            ("A1B2C3D4E5.com.example.*", .invalidBundleID("com.example.*")),
            ("A1B2C3D4E5.com.exa mple", .invalidBundleID("com.exa mple")),
            ("A1B2C3D4E5.com.예제", .invalidBundleID("com.예제")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try AppleAppID(text) }
        }
    }

    @Test func errorsSayWhatIsWrongInEnglishAndKorean() {
        let english = AppleAppIDError.invalidTeamID("abc").message(in: .english)
        let korean = AppleAppIDError.invalidTeamID("abc").message(in: .korean)
        #expect(english.contains("“abc” is not a team ID") && english.contains("10 characters"))
        #expect(korean.contains("“abc”") && korean.contains("팀 ID") && korean.contains("10자"))
        for error in [AppleAppIDError.notAnAppID("x"), .invalidTeamID("x"), .invalidBundleID("x")] {
            #expect(error.message(in: .english) != error.message(in: .korean))
            #expect(error.message(in: .korean).unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) })
        }
    }

    @Test func theFileListsEachAppOnceWithJSONContentType() async throws {
        let apps = try ["A1B2C3D4E5.com.example.notes", "B1B2C3D4E5.com.example.other", "A1B2C3D4E5.com.example.notes"]
            .map { try AppleAppID($0) }
        let association = AppleAppSiteAssociation(webCredentialApps: apps)
        let router = Router([], synchronous: [.health, association.route])
        let answer = await router.handle(HTTPRequest(method: "GET", path: AppleAppSiteAssociation.path))
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Location") == nil)
        #expect(String(decoding: answer.body, as: UTF8.self)
                == #"{"webcredentials":{"apps":["A1B2C3D4E5.com.example.notes","B1B2C3D4E5.com.example.other"]}}"#)
        #expect(await router.handle(HTTPRequest(method: "HEAD", path: AppleAppSiteAssociation.path)).status == 200)
        #expect(await router.handle(HTTPRequest(method: "POST", path: AppleAppSiteAssociation.path)).status == 405)
    }

    @Test func withoutAppsTheFileIsNotFound() async throws {
        let router = Router([], synchronous: [AppleAppSiteAssociation(webCredentialApps: []).route])
        let answer = await router.handle(HTTPRequest(method: "GET", path: AppleAppSiteAssociation.path))
        #expect(answer.status == 404)
        let body = try answer.decodeJSON(HTTPErrorBody.self)
        #expect(body.error == "not_found" && body.errorDescription?.contains("--apple-app-id") == true)
    }

    /// A real server: the configured apps over a socket, with the security headers every answer gets; the route is in
    /// the table whether apps are configured or not.
    @Test func latchkeyServeServesTheConfiguredApps() async throws {
        let server = try await ServeProcess(["--rp-id", "notes.example.com", "--origin", "https://notes.example.com",
                                             "--apple-app-id", "A1B2C3D4E5.com.example.notes",
                                             "--apple-app-id", "A1B2C3D4E5.com.example.notes-beta"]
                                            + OpenAPITests.databaseArguments())
        let answer = try await rawRequest(port: server.port, "GET /.well-known/apple-app-site-association HTTP/1.1\r\n"
                                          + "Host: notes.example.com\r\nConnection: close\r\n\r\n")
        #expect(try await server.stop() == 0)
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        #expect(answer.headers["location"] == nil && answer.headers["x-content-type-options"] == "nosniff")
        let object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        #expect(Set(object.keys) == ["webcredentials"])
        let credentials = try #require(object["webcredentials"] as? [String: Any])
        #expect(Set(credentials.keys) == ["apps"])
        #expect(credentials["apps"] as? [String] == ["A1B2C3D4E5.com.example.notes", "A1B2C3D4E5.com.example.notes-beta"])

        let unconfigured = try await ServeProcess(OpenAPITests.databaseArguments())
        let missing = try await rawRequest(port: unconfigured.port, "GET /.well-known/apple-app-site-association HTTP/1.1\r\n"
                                           + "Host: t\r\nConnection: close\r\n\r\n")
        #expect(try await unconfigured.stop() == 0)
        #expect(missing.status == 404 && missing.text.contains("not_found"))
        for extra in [[], ["--apple-app-id", "A1B2C3D4E5.com.example.notes"]] {
            let routes = try await ServeProcess.run(["serve", "--print-routes"] + extra)
            #expect(routes.status == 0 && routes.output.contains("GET /.well-known/apple-app-site-association\n"))
        }
    }

    /// A malformed app ID stops `latchkey serve` before it listens, with the reason and the usage (exit 64).
    @Test(arguments: [
        ("a1b2c3d4e5.com.example.notes", "“a1b2c3d4e5” is not a team ID"),
        ("com.example.notes", "“com” is not a team ID"),
        ("A1B2C3D4E5.com.example/notes", "“com.example/notes” is not a bundle ID"),
        ("A1B2C3D4E5", "“A1B2C3D4E5” is not an app ID"),
    ])
    func badAppIDsStopTheServerAtStart(_ id: String, _ reason: String) async throws {
        let refused = try await ServeProcess.runCapturingErrors(["serve", "--port", "0", "--apple-app-id", id]
                                                                + OpenAPITests.databaseArguments())
        #expect(refused.status == 64)
        #expect(refused.output.isEmpty, "it never listened: \(refused.output)")
        #expect(refused.errors.contains("latchkey serve: --apple-app-id: \(reason)"), "\(refused.errors)")
        #expect(refused.errors.contains("usage: latchkey serve"))
        let missingValue = try await ServeProcess.runCapturingErrors(["serve", "--apple-app-id"])
        #expect(missingValue.status == 64 && missingValue.errors.contains("--apple-app-id needs TEAMID.bundle.id"))
    }
}
