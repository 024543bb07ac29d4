#if canImport(CSecret)
import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// SecretServiceStore against the real gnome-keyring of `scripts/with-services.sh`. Each test uses its own
/// service / server names, so tests can run in parallel on one keyring.
@Suite(.serialized, .enabled(if: SecretServiceTestEnvironment.shouldRun), .offCooperativePool)
struct SecretServiceStoreTests {
    let service = SecretServiceTestEnvironment.uniqueID()

    func makeStore() throws -> SecretServiceStore {
        try SecretServiceTestEnvironment.requireService()
        return try SecretServiceStore()
    }

    func password(_ account: String, _ value: String = "pw", service: String? = nil) -> Item {
        Item.genericPassword(service: service ?? self.service, account: account, value: Data(value.utf8))
    }

    func cleanUp(_ store: SecretServiceStore) {
        try? store.delete(ItemQuery(itemClass: .genericPassword, filters: [.service: .string(service)],
                                    synchronizable: .any))
        try? store.delete(ItemQuery(itemClass: .internetPassword, filters: [.server: .string(service)],
                                    synchronizable: .any))
    }

    @Test func dataAccountKeepsItsTypeAndMatchesItsString() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        var item = password("placeholder")
        item.attributes.values[.account] = .data(Data("bytes".utf8))
        try store.add(item)
        #expect(status { try store.add(password("bytes")) } == .duplicateItem, "the same bytes as a string are the same account")
        var query = ItemQuery.genericPassword(service: service, account: "bytes")
        query.returnAttributes = true
        let found = try #require(try store.copyMatching(query).first)
        #expect(found.attributes?.values[.account] == .data(Data("bytes".utf8)), "read back as data, as added")
    }

    @Test func addFindUpdateDelete() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        try store.add(password("me", "secret"))
        var query = ItemQuery.genericPassword(service: service, account: "me")
        query.returnData = true
        query.returnAttributes = true
        let found = try #require(try store.copyMatching(query).first)
        #expect(found.data == Data("secret".utf8))
        #expect(found.attributes?.account == "me")
        #expect(found.attributes?.service == service)
        #expect(found.attributes?.accessibility == .whenUnlocked, "the default accessibility is filled in")
        let created = try #require(found.attributes?.creationDate)

        try store.update(.genericPassword(service: service, account: "me"),
                         with: AttributeChanges(values: [.label: .string("Renamed")], value: Data("new".utf8)))
        let updated = try #require(try store.copyMatching(query).first)
        #expect(updated.data == Data("new".utf8))
        #expect(updated.attributes?.label == "Renamed")
        #expect(updated.attributes?.creationDate == created, "update in place keeps the creation date")
        #expect(try #require(updated.attributes?.modificationDate) > created)

        try store.delete(.genericPassword(service: service, account: "me"))
        #expect(throws: KeychainStoreError.itemNotFound) { try store.copyMatching(query) }
        #expect(throws: KeychainStoreError.itemNotFound) { try store.delete(.genericPassword(service: service)) }
        #expect(throws: KeychainStoreError.itemNotFound) {
            try store.update(.genericPassword(service: service), with: AttributeChanges(value: Data()))
        }
    }

    @Test func duplicatesFollowThePrimaryKey() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        try store.add(password("me"))
        #expect(throws: KeychainStoreError.duplicateItem) { try store.add(password("me", "other")) }
        // Another account, another access group or synchronizable: another primary key.
        try store.add(password("you"))
        try store.add(Item.genericPassword(service: service, account: "me", value: Data(), accessGroup: "group.a"))
        var synced = password("me")
        synced.attributes.synchronizable = true
        try store.add(synced)
        // A label is not part of the key.
        var labelled = password("me")
        labelled.attributes.label = "different label"
        #expect(throws: KeychainStoreError.duplicateItem) { try store.add(labelled) }
        // Updating an item onto another's primary key is refused.
        #expect(throws: KeychainStoreError.duplicateItem) {
            try store.update(.genericPassword(service: service, account: "you"),
                             with: AttributeChanges(values: [.account: .string("me")]))
        }
        var all = ItemQuery.genericPassword(service: service)
        all.matchLimit = .all
        all.synchronizable = .any
        all.returnAttributes = true
        #expect(try store.copyMatching(all).count == 4)
    }

    /// An update looks at every item of the class for a primary-key clash, so it meets the items other clients add and
    /// delete meanwhile: one deleted between the daemon's search and its loading is simply not there, no failure.
    @Test func itemsAnotherClientDeletesMeanwhileAreNoFailure() async throws {
        let store = try makeStore()
        let churnService = "\(service).churn"
        defer {
            cleanUp(store)
            try? store.delete(.genericPassword(service: churnService))
        }
        try store.add(password("me"))
        let other = try SecretServiceStore()
        let churn = password("churn", service: churnService)
        let churning = Task.detached {
            for _ in 0..<150 {
                try other.add(churn)
                try other.delete(.genericPassword(service: churnService))
            }
        }
        for round in 0..<150 {
            try store.update(.genericPassword(service: service, account: "me"),
                             with: AttributeChanges(values: [.label: .string("round \(round)")]))
        }
        try await churning.value
    }

    @Test func matchLimitsAndFilters() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        for index in 0..<5 {
            var item = password("user\(index)", "v\(index)")
            item.attributes.comment = index.isMultiple(of: 2) ? "even" : "odd"
            try store.add(item)
        }
        var query = ItemQuery.genericPassword(service: service)
        query.returnAttributes = true
        #expect(try store.copyMatching(query).count == 1, "match limit one is the default")
        query.matchLimit = .all
        #expect(try store.copyMatching(query).count == 5)
        query.matchLimit = .upTo(3)
        #expect(try store.copyMatching(query).count == 3)
        query.matchLimit = .all
        query.filters[.comment] = .string("even")
        let even = try store.copyMatching(query)
        #expect(Set(even.compactMap { $0.attributes?.account }) == ["user0", "user2", "user4"])
        #expect(even.allSatisfy { $0.data == nil }, "no data unless asked")
        query.filters[.comment] = .string("none")
        #expect(throws: KeychainStoreError.itemNotFound) { try store.copyMatching(query) }

        // Update and delete act on every match.
        try store.update(ItemQuery(itemClass: .genericPassword,
                                   filters: [.service: .string(service), .comment: .string("odd")]),
                         with: AttributeChanges(value: Data("changed".utf8)))
        var odd = ItemQuery(itemClass: .genericPassword, filters: [.service: .string(service), .comment: .string("odd")])
        odd.matchLimit = .all
        odd.returnData = true
        #expect(try store.copyMatching(odd).map(\.data) == [Data("changed".utf8), Data("changed".utf8)])
        try store.delete(ItemQuery(itemClass: .genericPassword, filters: [.service: .string(service)]))
        #expect(throws: KeychainStoreError.itemNotFound) { try store.copyMatching(query) }
    }

    @Test func internetPasswordsAndPersistentReferences() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        var attributes = ItemAttributes(itemClass: .internetPassword)
        attributes.server = service
        attributes.account = "alice"
        attributes.internetProtocol = .https
        attributes.port = 8443
        attributes.path = "/login"
        try store.add(Item(attributes: attributes, value: Data("hunter2".utf8)))
        attributes.port = 443
        try store.add(Item(attributes: attributes, value: Data("other".utf8)))
        var query = ItemQuery(itemClass: .internetPassword,
                              filters: [.server: .string(service), .port: .int(8443)])
        query.returnData = true
        query.returnPersistentReference = true
        let found = try #require(try store.copyMatching(query).first)
        #expect(found.data == Data("hunter2".utf8))
        let reference = try #require(found.persistentReference)
        var byReference = ItemQuery(itemClass: .internetPassword, persistentReference: reference)
        byReference.returnAttributes = true
        #expect(try store.copyMatching(byReference).first?.attributes?.port == 8443)
    }

    @Test func binaryUnicodeEmptyAndLargeValues() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        var generator = SystemRandomNumberGenerator()
        let big = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let values: [String: Data] = ["empty": Data(), "binary": Data([0, 0, 255, 1]),
                                      "유니코드 🔑": Data("값 ✓".utf8), "big": big]
        for (account, value) in values {
            try store.add(Item.genericPassword(service: service, account: account, value: value))
        }
        for (account, value) in values {
            var query = ItemQuery.genericPassword(service: service, account: account)
            query.returnData = true
            #expect(try store.copyMatching(query).first?.data == value)
        }
    }

    @Test func accessControlNeedingAuthenticationIsRefused() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        var item = password("gated")
        item.attributes.accessControl = AccessControl(accessibility: .whenUnlockedThisDeviceOnly,
                                                      flags: .biometryCurrentSet)
        #expect(throws: KeychainStoreError(.unimplemented, .unsupportedAccessControl)) { try store.add(item) }
    }

    @Test func malformedQueriesAreParamErrors() throws {
        let store = try makeStore()
        let query = ItemQuery(itemClass: .genericPassword, filters: [.server: .string("not a genp attribute")])
        #expect(throws: KeychainStoreError.self) { try store.copyMatching(query) }
        do {
            _ = try store.copyMatching(query)
        } catch {
            #expect(error.status == .param)
        }
    }

    @Test func itemsAreVisibleToOtherSecretServiceClients() throws {
        let store = try makeStore()
        defer { cleanUp(store) }
        try store.add(password("interop", "shared-secret"))
        // A plain libsecret lookup by the readable attributes finds the same secret (as secret-tool would).
        let client = try SecretServiceClient()
        let secret = try client.lookup(schema: SecretServiceItemMapping.schema,
                                       attributes: ["service": service, "account": "interop"])
        #expect(secret == Data("shared-secret".utf8))
    }
}

@Suite(.offCooperativePool) struct SecretServiceStoreMappingTests {
    @Test func errorsMapToKeychainStatuses() {
        #expect(SecretServiceStore.map(.locked).status == .interactionNotAllowed)
        #expect(SecretServiceStore.map(.dismissed).status == .interactionNotAllowed)
        #expect(SecretServiceStore.map(.unavailable("x")).status == .notAvailable)
        #expect(SecretServiceStore.map(.noSuchObject).status == .itemNotFound)
        #expect(SecretServiceStore.map(.alreadyExists).status == .duplicateItem)
    }

    @Test func attributesRoundTripThroughTheMapping() throws {
        var attributes = ItemAttributes(itemClass: .genericPassword, accessibility: .afterFirstUnlock,
                                        creationDate: Date(timeIntervalSince1970: 1000),
                                        modificationDate: Date(timeIntervalSince1970: 2000))
        attributes.service = "svc"
        attributes.account = "acct"
        attributes.generic = Data([1, 2, 3])
        let stored = SecretServiceItemMapping.attributes(of: attributes, reference: "ref")
        #expect(stored["service"] == "svc")
        #expect(stored["account"] == "acct")
        #expect(stored["access-group"] == "", "absent primary-key attributes are stored empty")
        #expect(try SecretServiceItemMapping.decode(stored) == attributes)
        #expect(throws: KeychainStoreError.self) { try SecretServiceItemMapping.decode(["service": "svc"]) }
    }
}
#endif
