import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// `latchkey serve --app-attest-*` over a socket, with an authority whose root is given by `--app-attest-root`.
@Suite("latchkey serve with App Attest", .serialized, .offCooperativePool)
struct AppAttestServeTests {
    static func post(_ port: UInt16, _ path: String, _ body: String, headers: [String: String] = [:],
                     contentType: String = "application/json") async throws -> RawResponse {
        var text = "POST \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: \(contentType)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return try await rawRequest(port: port, text + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    static func step(_ response: RawResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["step"] as? String
    }

    @Test func attestsAndRequiresAssertionsOverTheWire() async throws {
        let device = try AppAttestTestDevice()
        let rootFile = device.pki.path("ca.pem")
        let server = try await ServeProcess(["--app-attest-app-id", AppAttestTestDevice.appID,
                                             "--app-attest-environment", "development", "--app-attest-root", rootFile,
                                             "--app-attest-policy", "sign-up=require"] + OpenAPITests.databaseArguments())
        func challenge() async throws -> Data {
            let answer = try await Self.post(server.port, "/v1/app-attest/challenge", "")
            try #require(answer.status == 200, "\(answer.text)")
            let object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(object["expires_in"] as? Int == 300 && answer.headers["cache-control"] == "no-store")
            let text = try #require(object["challenge"] as? String)
            return try #require(Data(base64URLEncoded: text))
        }
        let keyID = device.generateKey()
        let attestChallenge = try await challenge()
        let attestation = try device.attestKey(keyID, clientDataHash: AppAttestClientData.attestationHash(challenge: attestChallenge))
        let attested = try await Self.post(server.port, "/v1/app-attest/attest",
            #"{"key_id":"\#(keyID.base64URLEncodedString())","challenge":"\#(attestChallenge.base64URLEncodedString())","#
            + #""attestation":"\#(attestation.base64URLEncodedString())"}"#)
        #expect(attested.status == 201, "\(attested.text)")

        let body = #"{"username":"wire-user","password":"correct horse battery"}"#
        let bare = try await Self.post(server.port, "/v1/accounts", body)
        #expect(bare.status == 403 && Self.step(bare) == "missing")
        let header = try device.assertionHeader(keyID, challenge: try await challenge(), method: "POST", path: "/v1/accounts",
                                                body: Data(body.utf8))
        let created = try await Self.post(server.port, "/v1/accounts", body, headers: [AppAttestRequestAssertion.headerName: header])
        #expect(created.status == 201, "\(created.text)")
        let replayed = try await Self.post(server.port, "/v1/accounts", body, headers: [AppAttestRequestAssertion.headerName: header])
        #expect(replayed.status == 403 && Self.step(replayed) == "counter")
        // Refresh stays at the default policy, report: served without an assertion.
        let refresh = try await Self.post(server.port, "/v1/token", "grant_type=refresh_token&refresh_token=unknown",
                                          contentType: "application/x-www-form-urlencoded")
        #expect(refresh.status == 400)
        #expect(try await server.stop() == 0)
        let log = String(decoding: server.errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("App Attest for \(AppAttestTestDevice.appID) (development, 2 roots; sign-up require, token-refresh report)"),
                "\(log)")
    }

    @Test func badAppAttestOptionsStopTheServer() async throws {
        let base = ["serve", "--print-routes"]
        let app = ["--app-attest-app-id", AppAttestTestDevice.appID]
        #expect(try await ServeProcess.run(base + ["--app-attest-app-id", "not-an-app"]).status == 64)
        #expect(try await ServeProcess.run(base + app + ["--app-attest-environment", "staging"]).status == 64)
        #expect(try await ServeProcess.run(base + app + ["--app-attest-policy", "sign-up=maybe"]).status == 64)
        #expect(try await ServeProcess.run(base + app + ["--app-attest-policy", "login=require"]).status == 64)
        #expect(try await ServeProcess.run(base + ["--app-attest-policy", "sign-up=require"]).status == 64)
        let unreadable = try await ServeProcess.runCapturingErrors(base + app + ["--app-attest-root", "/nonexistent/root.pem"])
        #expect(unreadable.status == 1 && unreadable.errors.contains("--app-attest-root: cannot read"), "\(unreadable.errors)")
        let routes = try await ServeProcess.run(base + app + ["--app-attest-policy", "token-refresh=off"])
        #expect(routes.status == 0 && routes.output.contains("POST /v1/app-attest/attest\n"))
    }
}
