#if canImport(CSecret)
import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// Whether the Secret Service tests run: under `scripts/with-services.sh` (LATCHKEY_TEST_SECRET_SERVICE=1),
/// or always with LATCHKEY_REQUIRE_SERVICES=1 (then a missing service fails instead of skipping).
enum SecretServiceTestEnvironment {
    static let environment = ProcessInfo.processInfo.environment
    static let available = environment["LATCHKEY_TEST_SECRET_SERVICE"] == "1"
    static let required = environment["LATCHKEY_REQUIRE_SERVICES"] == "1"
    static let shouldRun = available || required

    /// Fails the test when the service was required but is missing.
    static func requireService() throws {
        try #require(available, "LATCHKEY_TEST_SECRET_SERVICE=1 is not set: run under scripts/with-services.sh")
    }

    static func uniqueID() -> String { "test-" + UUID().uuidString }
}

@Suite(.serialized, .enabled(if: SecretServiceTestEnvironment.shouldRun), .offCooperativePool)
struct SecretServiceClientTests {
    let schema = SecretServiceSchema(name: "org.latchkey.Test", attributes: ["id": .string, "kind": .string])

    @Test func daemonIsRunningOnThePrivateBus() throws {
        try SecretServiceTestEnvironment.requireService()
        #expect(SecretServiceClient.isDaemonRunning())
    }

    @Test func storeLookupClearRoundTripsBinarySecrets() throws {
        try SecretServiceTestEnvironment.requireService()
        let client = try SecretServiceClient()
        let id = SecretServiceTestEnvironment.uniqueID()
        let secret = Data([0, 1, 2, 255, 0, 128] + Array("비밀".utf8))
        try client.store(schema: schema, attributes: ["id": id, "kind": "a"], label: "test", secret: secret)
        #expect(try client.lookup(schema: schema, attributes: ["id": id]) == secret)
        // Storing again under exactly the same attributes replaces the item.
        try client.store(schema: schema, attributes: ["id": id, "kind": "a"], label: "test", secret: Data("b".utf8))
        #expect(try client.lookup(schema: schema, attributes: ["id": id]) == Data("b".utf8))
        #expect(try client.search(schema: schema, attributes: ["id": id], loadSecrets: false).count == 1)
        #expect(try client.clear(schema: schema, attributes: ["id": id]))
        #expect(try client.lookup(schema: schema, attributes: ["id": id]) == nil)
        #expect(try client.clear(schema: schema, attributes: ["id": id]) == false)
    }

    @Test func emptySecretRoundTrips() throws {
        try SecretServiceTestEnvironment.requireService()
        let client = try SecretServiceClient()
        let id = SecretServiceTestEnvironment.uniqueID()
        try client.store(schema: schema, attributes: ["id": id], label: "empty", secret: Data())
        #expect(try client.lookup(schema: schema, attributes: ["id": id]) == Data())
        try client.clear(schema: schema, attributes: ["id": id])
    }

    @Test func createSearchUpdateDeleteItems() throws {
        try SecretServiceTestEnvironment.requireService()
        let client = try SecretServiceClient()
        let id = SecretServiceTestEnvironment.uniqueID()
        let item = try client.create(schema: schema, attributes: ["id": id, "kind": "one"], label: "First",
                                     secret: Data("s1".utf8))
        #expect(item.label == "First")
        #expect(item.attributes["id"] == id)
        #expect(item.attributes["xdg:schema"] == schema.name)
        #expect(item.isLocked == false)
        #expect(item.created.timeIntervalSince1970 > 0)
        _ = try client.create(schema: schema, attributes: ["id": id, "kind": "two"], label: "Second",
                              secret: Data("s2".utf8))

        let both = try client.search(schema: schema, attributes: ["id": id], loadSecrets: true)
        #expect(both.count == 2)
        #expect(Set(try both.map { try client.secret(of: $0) }) == [Data("s1".utf8), Data("s2".utf8)])

        let found = try #require(try client.search(schema: schema, attributes: ["id": id, "kind": "one"],
                                                   loadSecrets: false).first)
        try client.update(found, schema: schema, attributes: ["id": id, "kind": "three"], label: "Renamed",
                          secret: Data("s3".utf8))
        let renamed = try #require(try client.search(schema: schema, attributes: ["id": id, "kind": "three"],
                                                     loadSecrets: false).first)
        #expect(renamed.label == "Renamed")
        #expect(try client.secret(of: renamed) == Data("s3".utf8))
        #expect(try client.search(schema: schema, attributes: ["id": id, "kind": "one"], loadSecrets: false).isEmpty)

        for item in try client.search(schema: schema, attributes: ["id": id], loadSecrets: false) {
            try client.delete(item)
        }
        #expect(try client.search(schema: schema, attributes: ["id": id], loadSecrets: false).isEmpty)
    }

    @Test func sessionCollectionWorksToo() throws {
        try SecretServiceTestEnvironment.requireService()
        let client = try SecretServiceClient(collection: .session)
        let id = SecretServiceTestEnvironment.uniqueID()
        try client.store(schema: schema, attributes: ["id": id], label: "session", secret: Data("x".utf8))
        #expect(try client.lookup(schema: schema, attributes: ["id": id]) == Data("x".utf8))
        try client.clear(schema: schema, attributes: ["id": id])
    }
}

@Suite(.offCooperativePool) struct SecretServiceUnavailableTests {
    @Test func noSessionBusMeansUnavailableWithoutAutolaunch() throws {
        // With neither a bus address nor a runtime-dir bus socket, nothing is contacted or spawned.
        let environment = ProcessInfo.processInfo.environment
        if environment["DBUS_SESSION_BUS_ADDRESS"] == nil, environment["XDG_RUNTIME_DIR"] == nil {
            #expect(SecretServiceClient.isDaemonRunning() == false)
            #expect(throws: SecretServiceError.self) { try SecretServiceClient() }
            #expect(SecretServiceKeyProvider().isAvailable == false)
        }
    }

    @Test func errorsHaveEnglishAndKoreanTexts() {
        let errors: [SecretServiceError] = [.unavailable("x"), .locked, .noSuchObject, .alreadyExists, .dismissed,
                                            .failed(domain: "d", code: 1, message: "m")]
        for error in errors {
            #expect(error.errorDescription?.isEmpty == false)
        }
    }
}
#endif
