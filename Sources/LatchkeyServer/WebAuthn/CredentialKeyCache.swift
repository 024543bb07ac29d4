import Foundation
import LatchkeyCrypto
import LatchkeySupport
import LatchkeyWebAuthn

/// Verification keys of recently used credentials, so that a sign-in with a known passkey neither decodes its COSE key
/// nor builds the platform key again (on OpenSSL the key object also keeps its prepared verification context).
///
/// An entry is found by credential ID and used only when the stored COSE key bytes it was built from are the record's
/// bytes too: a record whose key changed (a credential registered again, a record restored or edited) misses, and the
/// key built from its new bytes replaces the old one. The capacity is fixed; when full, CLOCK eviction (second chance)
/// makes room: the hand passes over entries used since it last came by, clearing their mark, and takes the first
/// unmarked one. One `Locked` state; keys are built outside the lock, so a miss never holds up other sign-ins (two
/// threads missing on one credential at the same moment both build it, and the later one's key is kept).
final class CredentialKeyCache: Sendable {
    /// The most entries kept; 0 keeps none.
    let capacity: Int
    private let state: Locked<State>

    private struct Entry {
        var credentialID: Data
        var publicKey: Data
        var key: CredentialVerificationKey
        /// Used since the hand last passed.
        var referenced: Bool
    }

    private struct State {
        var entries: [Entry] = []
        var slots: [Data: Int] = [:]
        var hand = 0
        var hits = 0
        var misses = 0
    }

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = Locked(State())
    }

    /// The verification key of the credential `credentialID` whose stored COSE key bytes are `publicKey`: the kept one
    /// when it was built from these bytes, otherwise the one `make` builds, which is then kept.
    func key(credentialID: Data, publicKey: Data,
             make: () throws(WebAuthnError) -> CredentialVerificationKey) throws(WebAuthnError) -> CredentialVerificationKey {
        guard capacity > 0 else { return try make() }
        let kept = state.withLock { state -> CredentialVerificationKey? in
            guard let slot = state.slots[credentialID], state.entries[slot].publicKey == publicKey else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            state.entries[slot].referenced = true
            return state.entries[slot].key
        }
        if let kept { return kept }
        let key = try make()
        insert(key, credentialID: credentialID, publicKey: publicKey)
        return key
    }

    /// Keeps `key` for `credentialID`, replacing what the credential had, or an entry the CLOCK hand picks.
    func insert(_ key: CredentialVerificationKey, credentialID: Data, publicKey: Data) {
        guard capacity > 0 else { return }
        let entry = Entry(credentialID: credentialID, publicKey: publicKey, key: key, referenced: false)
        state.withLock { state in
            if let slot = state.slots[credentialID] {
                state.entries[slot] = entry
                return
            }
            if state.entries.count < capacity {
                state.slots[credentialID] = state.entries.count
                state.entries.append(entry)
                return
            }
            while state.entries[state.hand].referenced {
                state.entries[state.hand].referenced = false
                state.hand = (state.hand + 1) % capacity
            }
            state.slots[state.entries[state.hand].credentialID] = nil
            state.entries[state.hand] = entry
            state.slots[credentialID] = state.hand
            state.hand = (state.hand + 1) % capacity
        }
    }

    /// Entries kept now, and how many lookups found their key or did not (for tests and diagnostics).
    var statistics: (count: Int, hits: Int, misses: Int) {
        state.withLock { ($0.entries.count, $0.hits, $0.misses) }
    }

    /// Whether a key built from `publicKey` is kept for `credentialID`.
    func contains(credentialID: Data, publicKey: Data) -> Bool {
        state.withLock { state in state.slots[credentialID].map { state.entries[$0].publicKey == publicKey } ?? false }
    }
}
