import Foundation
import Latchkey
import LatchkeyCrypto
import Testing
@testable import SecureNotesExampleCore

/// The example app's server address: HTTPS anywhere, HTTP only on this device or the local network, kept in
/// `UserDefaults`.
@Suite("Secure notes: server address")
struct ServerSettingsTests {
    @Test(arguments: [
        ("https://notes.example.com", "https://notes.example.com"),
        (" https://notes.example.com:8443/api \n", "https://notes.example.com:8443/api"),
        ("http://localhost:8080", "http://localhost:8080"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://192.168.1.20:8080", "http://192.168.1.20:8080"),
        ("http://10.0.0.5", "http://10.0.0.5"),
        ("http://172.20.1.1", "http://172.20.1.1"),
        ("http://mac-mini.local:8080", "http://mac-mini.local:8080"),
    ])
    func addressesAreTaken(_ text: String, _ expected: String) throws {
        #expect(try ServerSettings.validated(text).absoluteString == expected)
    }

    @Test func addressesAreRefusedWithTheReason() {
        let cases: [(String, ServerSettingsError)] = [
            ("  ", .empty),
            ("notes.example.com", .notAURL("notes.example.com")),
            ("https://", .notAURL("https://")),
            ("https://notes.example.com/?next=1", .notAURL("https://notes.example.com/?next=1")),
            ("ftp://notes.example.com", .unsupportedScheme("ftp")),
            ("https://ada:secret@notes.example.com", .credentialsInURL),
            ("http://notes.example.com", .insecure("notes.example.com")),
            ("http://172.32.0.1", .insecure("172.32.0.1")),
            ("http://192.169.0.1", .insecure("192.169.0.1")),
            ("http://8.8.8.8", .insecure("8.8.8.8")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try ServerSettings.validated(text) }
        }
        #expect(ServerSettingsError.insecure("x.example").message(in: .english)
                == "Use https:// for x.example: plain http:// is only for this device or the local network.")
        #expect(ServerSettingsError.insecure("x.example").message(in: .korean)
                == "x.example에는 https://를 사용하세요. http://는 이 기기나 로컬 네트워크에서만 쓸 수 있습니다.")
        #expect(!ServerSettingsError.credentialsInURL.message(in: .korean).contains("secret"))
    }

    @Test func theAddressIsKeptInUserDefaults() throws {
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        let fallback = try #require(URL(string: "https://notes.example.com"))
        let settings = ServerSettings(defaults: world.defaults, fallback: fallback)
        #expect(settings.url == fallback)
        try settings.save("http://192.168.1.20:8080")
        #expect(ServerSettings(defaults: world.defaults, fallback: fallback).url.absoluteString == "http://192.168.1.20:8080")
        #expect(world.defaults.string(forKey: ServerSettings.key) == "http://192.168.1.20:8080")
        #expect(throws: ServerSettingsError.insecure("example.org")) { try settings.save("http://example.org") }
        #expect(settings.url.absoluteString == "http://192.168.1.20:8080", "a refused address changes nothing")
        settings.reset()
        #expect(settings.url == fallback)
    }
}
