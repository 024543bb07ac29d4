import CryptoKit
import Foundation
import LatchkeySupport
import LatchkeyAuthCore

/// An item store in memory, for tests and previews. Same semantics and status codes as `FileVault`,
/// including the lock simulation (`lock()` / `unlock()`) and access control: a gated item keeps, per alternative,
/// the ephemeral key and a digest of its agreements with the domains' sealing keys (`GateAgreement`, so adding asks
/// nothing) and opens only when the query's context releases secrets that give the same agreements (so
/// `biometryCurrentSet` items die when enrolment changes). Not encrypted, except the values of `.applicationPassword`
/// items, which are sealed under their application password as in every store.
public final class MemoryStore: ItemStore {
    package struct Stored {
        package var attributes: ItemAttributes
        package var value: Data
        package var reference: Data
        package var gate: [Gate]
    }

    /// One alternative of a gated item: the ephemeral public key and SHA-256 of the agreements it was sealed with.
    package struct Gate: Sendable {
        package var ephemeralKey: Data
        package var digest: Data

        init(sealingKeys: [Data]) throws(KeychainStoreError) {
            let sealing = try GateAgreement.seal(to: sealingKeys)
            ephemeralKey = sealing.ephemeralKey
            digest = Data(Self.digest(sealing.agreements))
        }

        /// Whether `secrets` (one alternative's released domain secrets) give this gate's agreements.
        func opens(with secrets: [Data]) throws(KeychainStoreError) -> Bool {
            let agreements = try GateAgreement.open(ephemeralKey: ephemeralKey, secrets: secrets)
            return Self.digest(agreements) == digest  // a digest compared with bytes in constant time
        }

        static func digest(_ agreements: [Data]) -> SHA256Digest {
            var hash = SHA256()
            for agreement in agreements { hash.update(data: agreement) }
            return hash.finalize()
        }
    }

    package struct State {
        package var items: [Stored] = []
        package var lock: LockState
    }

    private let state: Locked<State>
    /// The access group given to items added without one (`nil`: none).
    public let defaultAccessGroup: String?
    private let kdf = Locked(ApplicationPasswordKDF.default)

    /// The Argon2id costs of application-password items added or changed from now on (`.default`).
    public var applicationPasswordKDF: ApplicationPasswordKDF {
        get { kdf.withLock { $0 } }
        set { kdf.withLock { $0 = newValue } }
    }

    /// Creates an empty, unlocked store.
    public init(defaultAccessGroup: String? = nil, passcodeSet: Bool = true) {
        self.defaultAccessGroup = defaultAccessGroup
        state = Locked(State(lock: LockState(isLocked: false, hasBeenUnlocked: true, passcodeSet: passcodeSet)))
    }

    /// Simulates locking the device: `whenUnlocked*` items answer errSecInteractionNotAllowed.
    public func lock() { state.withLock { $0.lock.isLocked = true } }
    /// Simulates unlocking the device.
    public func unlock() { state.withLock { $0.lock.isLocked = false; $0.lock.hasBeenUnlocked = true } }
    /// Simulates a reboot: locked, and not unlocked since (`afterFirstUnlock*` items unreadable too).
    public func reboot() { state.withLock { $0.lock.isLocked = true; $0.lock.hasBeenUnlocked = false } }
    /// The current lock state.
    public var lockState: LockState { state.withLock { $0.lock } }

    public func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        var item = item
        try StoreRules.prepareForAdd(&item, defaultAccessGroup: defaultAccessGroup, now: Date())
        let gate = try Self.gate(item.attributes.accessControl, authenticationContext) ?? []
        let pk = item.primaryKey
        item.value = try AccessGate.storedValue(item.value, item.attributes.accessControl, context: authenticationContext,
                                                kdf: applicationPasswordKDF)
        let ref = Data(UUID().uuidString.utf8)
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            try s.lock.check(item.attributes.effectiveAccessibility)
            if s.items.contains(where: { PrimaryKey.encode($0.attributes, value: $0.value) == pk }) { throw .duplicateItem }
            s.items.append(Stored(attributes: item.attributes, value: item.value, reference: ref, gate: gate))
        }
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        let snapshot = state.withLock { $0 }
        var results: [QueryResult] = []
        for stored in snapshot.items where matches(stored, query) {
            try snapshot.lock.check(stored.attributes.effectiveAccessibility)
            var value = stored.value
            if query.needsValue, let ac = stored.attributes.accessControl {
                do throws(KeychainStoreError) {
                    if ac.requiresAuthentication { try Self.open(stored, query.authenticationContext) }
                    value = try AccessGate.value(stored: stored.value, ac, context: query.authenticationContext)
                } catch where query.authenticationUI == .skip {
                    continue
                }
            }
            results.append(StoreRules.result(attributes: stored.attributes, value: value,
                                             reference: stored.reference, for: query))
            if let limit = query.matchLimit.count, results.count >= limit { break }
        }
        guard !results.isEmpty else { throw .itemNotFound }
        return results
    }

    public func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try query.validate()
        try changes.validate(for: query.itemClass)
        let newGate = try Self.gate(changes.accessControl, query.authenticationContext)
        let now = Date()
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            var items = s.items
            var touched = 0
            for index in items.indices where matches(items[index], query) {
                var stored = items[index]
                try s.lock.check(stored.attributes.effectiveAccessibility)
                var updated = changes.applied(to: stored.attributes)
                try s.lock.check(updated.effectiveAccessibility)
                if StoreRules.needsGateForUpdate(stored.attributes, updated, changes),
                   let ac = stored.attributes.accessControl, ac.requiresAuthentication {
                    try Self.open(stored, query.authenticationContext)
                }
                if changes.value != nil || changes.accessControl != nil {
                    stored.value = try AccessGate.restoredValue(stored.value, newValue: changes.value,
                                                                from: stored.attributes.accessControl, to: updated.accessControl,
                                                                context: query.authenticationContext, kdf: applicationPasswordKDF)
                }
                updated.modificationDate = StoreRules.nextModificationDate(after: stored.attributes.modificationDate, now: now)
                stored.attributes = updated
                if let newGate { stored.gate = newGate }
                items[index] = stored
                touched += 1
            }
            guard touched > 0 else { throw .itemNotFound }
            var seen = Set<Data>()
            for stored in items {
                guard seen.insert(PrimaryKey.encode(stored.attributes, value: stored.value)).inserted else { throw .duplicateItem }
            }
            s.items = items
        }
    }

    public func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        try query.validate()
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            let doomed = s.items.filter { matches($0, query) }
            guard !doomed.isEmpty else { throw .itemNotFound }
            for stored in doomed { try s.lock.check(stored.attributes.effectiveAccessibility) }
            s.items.removeAll { matches($0, query) }
        }
    }

    private func matches(_ stored: Stored, _ query: ItemQuery) -> Bool {
        if let ref = query.persistentReference, ref != stored.reference { return false }
        return query.matches(stored.attributes)
    }

    private static func open(_ stored: Stored, _ context: (any AuthenticationContext)?) throws(KeychainStoreError) {
        guard let ac = stored.attributes.accessControl else { return }
        let (index, secrets) = try AccessGate.secretsForOpening(ac, context: context)
        guard index < stored.gate.count, try stored.gate[index].opens(with: secrets) else { throw .authFailed }
    }

    /// The gate of an item with access control `ac` (nil without one; empty for one that needs no authentication).
    private static func gate(_ ac: AccessControl?, _ context: (any AuthenticationContext)?) throws(KeychainStoreError) -> [Gate]? {
        guard let ac else { return nil }
        guard ac.requiresAuthentication else { return [] }
        var gate: [Gate] = []
        for keys in try AccessGate.keysForSealing(ac, context: context) { gate.append(try Gate(sealingKeys: keys)) }
        return gate
    }
}
