import Foundation
import LatchkeySupport

/// A challenge the relying party issued and has not yet seen come back.
public struct IssuedChallenge: Sendable, Hashable, Codable {
    public enum Ceremony: String, Sendable, Hashable, Codable { case registration, authentication }
    public var challenge: Data
    public var ceremony: Ceremony
    /// The user handle a registration challenge was issued for (nil for discoverable sign-in).
    public var userHandle: Data?
    public var expiresAt: Date

    public init(challenge: Data, ceremony: Ceremony, userHandle: Data?, expiresAt: Date) {
        self.challenge = challenge
        self.ceremony = ceremony
        self.userHandle = userHandle
        self.expiresAt = expiresAt
    }
}

/// Where issued challenges wait. `consume` must be atomic: a challenge is returned at most once,
/// so a replayed response finds nothing. Server deployments with several processes back this with
/// the shared database.
public protocol ChallengeStore: Sendable {
    func insert(_ challenge: IssuedChallenge) async throws
    /// Removes and returns the challenge, or nil when it was never issued or is already used.
    func consume(_ challenge: Data) async throws -> IssuedChallenge?
}

/// An in-process challenge store (single server process, tests). Expired entries are dropped as new
/// ones arrive, so it stays bounded by the issue rate times the lifetime.
public final class InMemoryChallengeStore: ChallengeStore {
    private let entries = Locked<[Data: IssuedChallenge]>([:])
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

    public func insert(_ challenge: IssuedChallenge) async throws {
        let t = now()
        entries.withLock { map in
            if map.count > 1024 { map = map.filter { $0.value.expiresAt > t } }
            map[challenge.challenge] = challenge
        }
    }

    public func consume(_ challenge: Data) async throws -> IssuedChallenge? {
        entries.withLock { $0.removeValue(forKey: challenge) }
    }
}
