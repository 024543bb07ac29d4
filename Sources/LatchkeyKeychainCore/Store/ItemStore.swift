import Foundation
import LatchkeyAuthCore

/// A place that keeps keychain items with Keychain Services semantics (`SecItemAdd`, `SecItemCopyMatching`,
/// `SecItemUpdate`, `SecItemDelete`).
///
/// The operations are synchronous and never prompt: an access-controlled item opens only when the query's
/// `authenticationContext` has *already* been evaluated (its `releaseSecret(for:)` answers). This keeps the
/// cryptographic gate in one place and lets stores be called from any thread. Use the `authenticated…`
/// variants from async code to have the store evaluate the context (with `operationPrompt`) when
/// `authenticationUI` is `.allow`, then retry.
///
/// Errors are `KeychainStoreError` with Apple's `OSStatus` values:
/// add → errSecDuplicateItem when an item with the same primary key exists; reads/updates/deletes →
/// errSecItemNotFound when nothing matches; errSecInteractionNotAllowed when locked or an item needs an
/// evaluated context; errSecUserCanceled / errSecAuthFailed from the context; errSecParam for bad input.
public protocol ItemStore: Sendable {
    /// Adds an item. An item with an access control needs a context that releases the secrets of its domains.
    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError)
    /// Finds items; returns at least one result or throws errSecItemNotFound.
    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult]
    /// Changes every matching item in place (one transaction); errSecDuplicateItem if a change would make
    /// two items share a primary key.
    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError)
    /// Deletes every matching item (no authentication needed, as on Apple platforms).
    func delete(_ query: ItemQuery) throws(KeychainStoreError)
}

extension ItemStore {
    /// Adds an item without an authentication context.
    public func add(_ item: Item) throws(KeychainStoreError) {
        try add(item, authenticationContext: nil)
    }

    /// Adds an item, evaluating `context` first if the item's access control needs it and it was not evaluated.
    public func authenticatedAdd(_ item: Item, authenticationContext context: (any AuthenticationContext)?,
                                 operationPrompt: String? = nil) async throws(KeychainStoreError) {
        do {
            try add(item, authenticationContext: context)
        } catch let error where AccessGate.shouldEvaluate(error, context: context, ui: .allow) {
            try await AccessGate.evaluate(context, for: error, prompt: operationPrompt)
            try add(item, authenticationContext: context)
        }
    }

    /// `copyMatching`, evaluating the query's context (prompting with `operationPrompt`) when an item needs it
    /// and `authenticationUI` is `.allow`. Never blocks on a prompt synchronously.
    public func authenticatedCopyMatching(_ query: ItemQuery) async throws(KeychainStoreError) -> [QueryResult] {
        do {
            return try copyMatching(query)
        } catch let error where AccessGate.shouldEvaluate(error, context: query.authenticationContext, ui: query.authenticationUI) {
            try await AccessGate.evaluate(query.authenticationContext, for: error, prompt: query.operationPrompt)
            return try copyMatching(query)
        }
    }

    /// `update`, evaluating the query's context when needed (as `authenticatedCopyMatching`).
    public func authenticatedUpdate(_ query: ItemQuery, with changes: AttributeChanges) async throws(KeychainStoreError) {
        do {
            try update(query, with: changes)
        } catch let error where AccessGate.shouldEvaluate(error, context: query.authenticationContext, ui: query.authenticationUI) {
            try await AccessGate.evaluate(query.authenticationContext, for: error, prompt: query.operationPrompt)
            try update(query, with: changes)
        }
    }
}
