import Foundation

/// A JWK Set converted once into verification keys, for verifying many tokens without re-importing
/// the keys each time (a server keeps one per JWKS fetch).
public struct JWSVerificationKeySet: Sendable {
    /// One usable key with the restrictions its JWK carried.
    public struct Entry: Sendable {
        /// The JWK's `kid`.
        public let kid: String?
        /// The one algorithm the JWK allows (nil: any algorithm suiting the key type).
        public let algorithm: JWSAlgorithm?
        /// The key.
        public let key: JWSVerificationKey

        public init(kid: String?, algorithm: JWSAlgorithm?, key: JWSVerificationKey) {
            self.kid = kid; self.algorithm = algorithm; self.key = key
        }
    }

    /// The usable keys.
    public let entries: [Entry]

    /// Converts every usable JWK; keys that cannot verify (`use: enc`, unsupported curves, RSA under
    /// 2048 bits, an `alg` LatchkeyCrypto does not support, malformed members) are left out.
    public init(_ set: JWKSet) {
        entries = set.keys.compactMap { jwk in
            var algorithm: JWSAlgorithm?
            if let name = jwk.alg {
                guard let alg = JWSAlgorithm(rawValue: name) else { return nil }
                algorithm = alg
            }
            guard let key = try? jwk.verificationKey else { return nil }
            if let algorithm, !key.supports(algorithm) { return nil }
            return Entry(kid: jwk.kid, algorithm: algorithm, key: key)
        }
    }

    /// A set of already-converted keys.
    public init(entries: [Entry]) { self.entries = entries }

    /// The keys that may verify a token with this `kid` and `alg`: `.unknownKey` when no entry has the
    /// `kid`, `.algorithmNotAllowed` when entries have it but none suits `alg`. Without a `kid`, every
    /// suitable key (`.unknownKey(nil)` when there is none).
    func candidates(kid: String?, alg: JWSAlgorithm) throws(JWTError) -> [JWSVerificationKey] {
        let named = kid.map { kid in entries.filter { $0.kid == kid } } ?? entries
        if let kid, named.isEmpty { throw .unknownKey(kid) }
        let usable = named.filter { ($0.algorithm ?? alg) == alg && $0.key.supports(alg) }.map(\.key)
        guard !usable.isEmpty else {
            if kid == nil { throw .unknownKey(nil) }
            throw .algorithmNotAllowed
        }
        return usable
    }
}
