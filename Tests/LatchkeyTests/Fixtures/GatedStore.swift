import Foundation
import LatchkeyAuth
import LatchkeyKeychain
import LatchkeySupport

/// A `MemoryStore` whose next read, once armed, waits until released: an operation caught in flight.
final class GatedStore: ItemStore {
    private let store = MemoryStore()
    private let armed = Locked(false)
    private let gate = DispatchSemaphore(value: 0)
    private let continuation: AsyncStream<Void>.Continuation
    /// Yields when an armed read starts waiting.
    let entered: AsyncStream<Void>

    init() { (entered, continuation) = AsyncStream.makeStream() }

    /// The next `copyMatching` waits for `release()`.
    func arm() { armed.withLock { $0 = true } }

    /// Lets the waiting read go on.
    func release() { gate.signal() }

    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        try store.add(item, authenticationContext: authenticationContext)
    }

    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        let wait = armed.withLock { armed in
            defer { armed = false }
            return armed
        }
        if wait {
            continuation.yield()
            gate.wait()
        }
        return try store.copyMatching(query)
    }

    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try store.update(query, with: changes)
    }

    func delete(_ query: ItemQuery) throws(KeychainStoreError) { try store.delete(query) }
}
