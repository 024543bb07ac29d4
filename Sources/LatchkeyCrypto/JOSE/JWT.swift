import Foundation

/// A JWT that passed `JWT.verify`.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: JWSHeader
    /// The registered and extra claims.
    public let claims: JWTClaims
    /// The raw claims JSON.
    public let payload: Data

    /// Decodes the payload into an application type (dates as seconds since 1970).
    public func decode<T: Decodable>(_ type: T.Type) throws(JWTError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do { return try decoder.decode(type, from: payload) } catch { throw .malformed }
    }
}

/// JSON Web Tokens (RFC 7519) signed as compact JWS.
public enum JWT {
    /// Signs `claims` (any Encodable; use `JWTClaims` for registered claims) with `key`.
    public static func sign<C: Encodable>(claims: C, header: JWSHeader, key: JWSSigningKey) throws(CryptoError) -> String {
        let payload: Data
        if let claims = claims as? JWTClaims {
            payload = try JSONCoding.encode(claims.jsonObject)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .secondsSince1970
            do { payload = try encoder.encode(claims) } catch { throw .malformedInput("claims") }
            guard (try? JSONCoding.object(from: payload)) != nil else { throw .malformedInput("claims must be a JSON object") }
        }
        return try JWS.sign(payload: payload, header: header, key: key)
    }

    /// Verifies `token` with the key `keyProvider` returns for the header's `kid`.
    public static func verify(_ token: String, options: JWTValidationOptions,
                              keyProvider: (String?) -> JWSVerificationKey?) throws(JWTError) -> VerifiedJWT {
        let jws = try parse(token, options: options)
        guard let key = keyProvider(jws.header.kid) else { throw .unknownKey(jws.header.kid) }
        guard key.supports(jws.header.alg) else { throw .algorithmNotAllowed }
        guard key.isValid(signature: jws.signature, signingInput: jws.signingInput, algorithm: jws.header.alg) else {
            throw .badSignature
        }
        return try validate(jws, options: options)
    }

    /// Verifies `token` with one key.
    public static func verify(_ token: String, key: JWSVerificationKey, options: JWTValidationOptions) throws(JWTError) -> VerifiedJWT {
        try verify(token, options: options) { _ in key }
    }

    /// Verifies `token` with the key of `keys` named by the header's `kid`. A JWK whose `alg` differs
    /// from the header's, or whose type does not suit it, is not used. Without a `kid`, every suitable
    /// key is tried. (Converts the JWKs on every call: keep a `JWSVerificationKeySet` to verify many tokens.)
    public static func verify(_ token: String, keys: JWKSet, options: JWTValidationOptions) throws(JWTError) -> VerifiedJWT {
        try verify(token, keys: JWSVerificationKeySet(keys), options: options)
    }

    /// Verifies `token` with the keys of an already-converted set (same selection rules as for a `JWKSet`).
    public static func verify(_ token: String, keys: JWSVerificationKeySet,
                              options: JWTValidationOptions) throws(JWTError) -> VerifiedJWT {
        let jws = try parse(token, options: options)
        let candidates = try keys.candidates(kid: jws.header.kid, alg: jws.header.alg)
        guard candidates.contains(where: {
            $0.isValid(signature: jws.signature, signingInput: jws.signingInput, algorithm: jws.header.alg)
        }) else { throw .badSignature }
        return try validate(jws, options: options)
    }

    // MARK: Steps

    private static func parse(_ token: String, options: JWTValidationOptions) throws(JWTError) -> JWS {
        let jws: JWS
        do { jws = try JWS(compactSerialization: token) } catch {
            if case let .unsupportedAlgorithm(name) = error { throw .unsupportedAlgorithm(name) }
            throw .malformed
        }
        guard options.allowedAlgorithms.contains(jws.header.alg) else { throw .algorithmNotAllowed }
        if let expected = options.expectedType {
            guard let typ = jws.header.typ, normalizedType(typ) == normalizedType(expected) else { throw .wrongType }
        }
        return jws
    }

    private static func normalizedType(_ type: String) -> String {
        let lower = type.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst("application/".count)) : lower
    }

    private static func validate(_ jws: JWS, options: JWTValidationOptions) throws(JWTError) -> VerifiedJWT {
        let claims: JWTClaims
        do { claims = try JWTClaims(json: jws.payload) } catch { throw .malformed }
        let now = (options.now ?? Date()).timeIntervalSince1970
        let skew = max(0, options.clockSkew)

        if let exp = claims.exp {
            guard now < exp.timeIntervalSince1970 + skew else { throw .expired }
        } else if options.requireExpiration {
            throw .missingClaim("exp")
        }
        if let nbf = claims.nbf, now + skew < nbf.timeIntervalSince1970 { throw .notYetValid }
        if let iat = claims.iat, iat.timeIntervalSince1970 > now + skew { throw .issuedInFuture }

        if let issuer = options.issuer {
            guard let iss = claims.iss else { throw .missingClaim("iss") }
            guard iss == issuer else { throw .wrongIssuer }
        }
        if let audiences = options.audiences {
            guard let aud = claims.aud else { throw .missingClaim("aud") }
            guard aud.contains(where: audiences.contains) else { throw .wrongAudience }
        } else if claims.aud != nil {
            throw .wrongAudience
        }
        if options.requiredClaims.contains(where: { claims[claim: $0] == nil }) {
            // The first missing claim in name order, so the error does not depend on set order.
            for name in options.requiredClaims.sorted() where claims[claim: name] == nil { throw .missingClaim(name) }
        }
        return VerifiedJWT(header: jws.header, claims: claims, payload: jws.payload)
    }
}
