import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// The server's ES256 signing keys, kept in the database so several processes share them.
///
/// One key is active (it signs); retired keys stay published in the JWKS until every token they signed
/// has expired (`accessTokenLifetime + clockSkew` after retirement), then they are deleted. The cache
/// is reloaded every `reloadInterval` seconds and whenever a token names an unknown `kid`, so a rotation
/// made by another process is picked up.
///
/// Private keys are stored as PKCS#8 DER, AES-256-GCM encrypted (`aesgcm:` prefix, the kid as associated
/// data) when a key-encryption key is configured, otherwise in the clear (`pkcs8:` prefix) and protected
/// only by the database's access control (SQLite: file mode 0600).
public final class SigningKeyRing: Sendable {
    struct Loaded: Sendable {
        var activeKID: String
        var activeKey: P256.Signing.PrivateKey
        var activeHeaderPrefix: String
        var activeCreatedAt: Int64
        var published: [(kid: String, key: P256.Signing.PublicKey, retiredAt: Int64?)]
        var loadedAt: Int64
        /// Counts loads, so a verifier built from an earlier load is never reused for a later one.
        var generation: Int
    }

    /// Verifiers built from the current load, by their settings: reused while the published keys stay the same,
    /// so each request does not rebuild the public keys (and their prepared OpenSSL verify contexts).
    private struct CachedVerifiers {
        var generation: Int
        var kids: [String]
        var verifiers: [TokenVerifier]
    }

    private let database: any Database
    private let clock: any ServerClock
    private let publishFor: Int64
    private let rotationInterval: Int64
    private let encryptionKey: SymmetricKey?
    private let reloadInterval: Int64
    private let state: Locked<Loaded?>
    /// When a token with an unknown `kid` last made the ring reload (at most once a second, so tokens with
    /// made-up `kid`s cannot turn every request into a database read).
    private let lastUnknownKIDReload = Locked<Int64>(Int64.min)
    private let loads = Locked<Int>(0)
    private let cachedVerifiers = Locked<CachedVerifiers?>(nil)

    /// Loads the keys, creating the first one if the database has none.
    public init(database: any Database, clock: any ServerClock, accessTokenLifetime: Int64, clockSkew: Int64,
                rotationInterval: Int64, encryptionKey: SymmetricKey? = nil, reloadInterval: Int64 = 30) throws {
        self.reloadInterval = max(1, reloadInterval)
        self.database = database
        self.clock = clock
        self.publishFor = accessTokenLifetime + clockSkew
        self.rotationInterval = rotationInterval
        self.encryptionKey = encryptionKey
        self.state = Locked(nil)
        if try load() == nil {
            // Several instances starting together: exactly one creates the first key, the others load it.
            try install(condition: .noActiveKey)
        }
    }

    /// The active key id.
    public var activeKeyID: String {
        get throws { try current().activeKID }
    }

    /// Signs `claims` with the active key.
    func sign(_ claims: AccessTokenClaims) throws -> String {
        let loaded = try current()
        return try AccessTokenCodec.sign(claims, headerPrefix: loaded.activeHeaderPrefix, key: loaded.activeKey)
    }

    /// Makes a new active key; the previous one is retired but stays published until its tokens expire.
    /// Keys retired long enough ago are deleted.
    public func rotate() throws {
        try install(condition: .always)
    }

    /// Rotates when the active key is older than the rotation interval. Returns true when this instance
    /// rotated; when several instances find the key due at once, exactly one rotates and the others load
    /// its key (the check is repeated inside the database transaction).
    @discardableResult
    public func rotateIfDue() throws -> Bool {
        let loaded = try current()
        let now = clock.seconds
        guard now - loaded.activeCreatedAt >= rotationInterval else { return false }
        return try install(condition: .activeCreatedBefore(now - rotationInterval + 1))
    }

    enum InstallCondition {
        case always
        case noActiveKey
        case activeCreatedBefore(Int64)
    }

    @discardableResult
    private func install(condition: InstallCondition) throws -> Bool {
        let now = clock.seconds
        let key = try P256.Signing.PrivateKey()
        let kid = SecureRandom.bytes(count: 12).base64URLEncodedString()
        let jwk = try PublishedKeySet(keys: [PublishedKey(kid: kid, key: key.publicKey)]).jsonData()
        let record = SigningKeyRecord(kid: kid, privateKey: try protect(key.derRepresentation, kid: kid),
                                      publicJWK: String(decoding: jwk, as: UTF8.self), createdAt: now)
        let installed: Bool
        switch condition {
        case .always: installed = try database.installSigningKey(record, now: now)
        case .noActiveKey: installed = try database.installSigningKey(record, now: now, onlyIfNoActiveKey: true)
        case .activeCreatedBefore(let cutoff): installed = try database.installSigningKey(record, now: now, onlyIfActiveCreatedBefore: cutoff)
        }
        if installed {
            try database.deleteSigningKeys(retiredBefore: now - publishFor + 1) // retired_at + publishFor <= now: unpublished
        }
        _ = try load()
        return installed
    }

    /// The keys to publish now: the active key and retired keys whose tokens may still be valid.
    public func publishedKeySet() throws -> PublishedKeySet {
        PublishedKeySet(keys: published(in: try current()).map { PublishedKey(kid: $0.kid, key: $0.key) })
    }

    /// The keys of `loaded` to publish now: the active key and retired keys whose tokens may still be valid.
    private func published(in loaded: Loaded) -> [(kid: String, key: P256.Signing.PublicKey)] {
        let now = clock.seconds
        return loaded.published.compactMap { entry in
            if let retired = entry.retiredAt, retired + publishFor <= now { return nil }
            return (entry.kid, entry.key)
        }
    }

    /// A verifier over the currently published keys (reloading if `kid` is unknown and no such reload
    /// happened in the last second: another instance may just have rotated). The same verifier is returned
    /// while the published keys and the settings are unchanged.
    func verifier(issuer: String, audience: String, leeway: Int64, forKID kid: String?) throws -> TokenVerifier {
        var loaded = try current()
        var keys = published(in: loaded)
        if let kid, !keys.contains(where: { $0.kid == kid }) {
            let now = clock.seconds
            let due = lastUnknownKIDReload.withLock { last in
                guard last == Int64.min || now - last >= 1 else { return false }
                last = now
                return true
            }
            if due, let reloaded = try load() {
                loaded = reloaded
                keys = published(in: loaded)
            }
        }
        let kids = keys.map(\.kid)
        return cachedVerifiers.withLock { cache in
            if cache?.generation != loaded.generation || cache?.kids != kids {
                cache = CachedVerifiers(generation: loaded.generation, kids: kids, verifiers: [])
            }
            if let found = cache?.verifiers.first(where: { $0.issuer == issuer && $0.audience == audience && $0.leeway == leeway }) {
                return found
            }
            let verifier = TokenVerifier(keys: Dictionary(keys.map { ($0.kid, $0.key) }, uniquingKeysWith: { _, last in last }),
                                         issuer: issuer, audience: audience, leeway: leeway, clock: clock)
            // A handful of settings at most (the normal leeway and revocation's longer one); keep the newest few.
            if cache?.verifiers.count ?? 0 >= 4 { cache?.verifiers.removeFirst() }
            cache?.verifiers.append(verifier)
            return verifier
        }
    }

    private func current() throws -> Loaded {
        if let loaded = state.withLock({ $0 }), clock.seconds - loaded.loadedAt < reloadInterval { return loaded }
        if let loaded = try load() { return loaded }
        throw DatabaseError.statementFailed("no active signing key")
    }

    /// Reads every key from the database. Returns nil when there is no active key.
    @discardableResult
    private func load() throws -> Loaded? {
        let records = try database.signingKeys()
        guard let active = records.first(where: { $0.retiredAt == nil }) else { return nil }
        let privateKey = try P256.Signing.PrivateKey(derRepresentation: try unprotect(active.privateKey, kid: active.kid))
        var published: [(kid: String, key: P256.Signing.PublicKey, retiredAt: Int64?)] = []
        for record in records {
            guard let set = try? PublishedKeySet(jsonData: Data(record.publicJWK.utf8)), let jwk = set.keys.first,
                  let key = try? jwk.publicKey() else { continue }
            published.append((record.kid, key, record.retiredAt))
        }
        let loaded = Loaded(activeKID: active.kid, activeKey: privateKey,
                            activeHeaderPrefix: try AccessTokenCodec.headerPrefix(kid: active.kid), activeCreatedAt: active.createdAt,
                            published: published, loadedAt: clock.seconds,
                            generation: loads.withLock { $0 += 1; return $0 })
        state.withLock { $0 = loaded }
        return loaded
    }

    private func protect(_ der: Data, kid: String) throws -> String {
        guard let encryptionKey else { return "pkcs8:" + der.base64URLEncodedString() }
        let box = try AES.GCM.seal(der, using: encryptionKey, authenticating: Data(kid.utf8))
        return "aesgcm:" + box.combined.base64URLEncodedString()
    }

    private func unprotect(_ stored: String, kid: String) throws -> Data {
        if stored.hasPrefix("pkcs8:"), let der = Data(base64URLEncoded: stored.dropFirst(6)) { return der }
        if stored.hasPrefix("aesgcm:"), let combined = Data(base64URLEncoded: stored.dropFirst(7)) {
            guard let encryptionKey else { throw CryptoError.invalidParameter("the signing keys are encrypted; no key-encryption key is configured") }
            return try AES.GCM.open(try AES.GCM.SealedBox(combined: combined), using: encryptionKey, authenticating: Data(kid.utf8))
        }
        throw CryptoError.malformedInput("stored signing key")
    }
}

extension SigningKeyRing {
    /// Signs `claims` with the active key (the service itself signs through `AuthService`).
    public func signAccessToken(_ claims: AccessTokenClaims) throws -> String { try sign(claims) }
}
