import Foundation
import LatchkeyCrypto

/// Apple's signing keys (a JWK Set), fetched on demand, cached for `keyCacheLifetime`, and fetched
/// again when a token names a `kid` the cache lacks — at most once per `minimumRefetchInterval`.
public actor AppleKeyStore {
    let url: URL
    let client: any AppleHTTPClient
    let lifetime: TimeInterval
    let minimumRefetchInterval: TimeInterval
    let now: @Sendable () -> Date
    var keys: JWKSet?
    var fetchedAt: Date?
    /// How many times the key set was fetched (for operators and tests).
    public private(set) var fetchCount = 0

    public init(url: URL, client: any AppleHTTPClient, lifetime: TimeInterval = 3600,
                minimumRefetchInterval: TimeInterval = 60, now: @escaping @Sendable () -> Date = Date.init) {
        self.url = url
        self.client = client
        self.lifetime = lifetime
        self.minimumRefetchInterval = minimumRefetchInterval
        self.now = now
    }

    /// The verification key named `kid`.
    public func key(id kid: String?) async throws(AppleSignInError) -> JWSVerificationKey {
        guard let kid else { throw .unknownKey(nil) }
        let t = now()
        let stale = fetchedAt.map { t.timeIntervalSince($0) >= lifetime } ?? true
        if stale { try await fetch() }
        if let key = try lookup(kid) { return key }
        // Unknown kid: Apple may have rotated. Refetch, but not more often than allowed.
        if !stale, let last = fetchedAt, t.timeIntervalSince(last) >= minimumRefetchInterval {
            try await fetch()
            if let key = try lookup(kid) { return key }
        }
        throw .unknownKey(kid)
    }

    func lookup(_ kid: String) throws(AppleSignInError) -> JWSVerificationKey? {
        guard let jwk = keys?.key(withID: kid) else { return nil }
        guard jwk.kty == "RSA" else { throw .algorithmNotAllowed(jwk.alg ?? jwk.kty) }
        do { return try jwk.verificationKey } catch { throw .keySetUnavailable("key \(kid) does not parse") }
    }

    func fetch() async throws(AppleSignInError) {
        fetchCount += 1
        let result: (status: Int, body: Data)
        do { result = try await client.get(url) } catch { throw .keySetUnavailable("\(error.localizedDescription)") }
        guard result.status == 200 else { throw .keySetUnavailable("HTTP \(result.status)") }
        guard result.body.count <= 64 * 1024, let set = try? JSONDecoder().decode(JWKSet.self, from: result.body) else {
            throw .keySetUnavailable("not a JWK Set")
        }
        keys = set
        fetchedAt = now()
    }
}
