import Foundation

/// A stored password verifier (a PHC string) made and checked with the platform's best password hash: Argon2id on
/// Linux (libsodium); PBKDF2-HMAC-SHA256 where Apple's frameworks are used (CommonCrypto — Apple ships no Argon2;
/// 600,000 iterations, OWASP's 2023 figure for PBKDF2-HMAC-SHA256).
///
/// Strings: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` and `$pbkdf2-sha256$i=600000$<salt>$<hash>` (unpadded
/// standard base64, 16-byte salt, 32-byte hash). Both platforms verify the PBKDF2 form; Argon2id strings are verified
/// on Linux only (`verify` throws `.unsupportedAlgorithm` elsewhere), so a verifier moved from a Linux machine to an
/// Apple device cannot be checked there — make a new one.
///
/// ```swift
/// let stored = try PasswordHash.make(password: "correct horse")
/// let ok = try PasswordHash.verify(password: "correct horse", against: stored)
/// if PasswordHash.needsRehash(stored) { /* after a successful login, store make(password:) again */ }
/// ```
public struct PasswordHash: Sendable, Hashable {
    /// The cost of new verifiers.
    public enum Strength: Sendable, Hashable {
        /// OWASP's minimums: Argon2id 19 MiB, t = 2, p = 1; PBKDF2-HMAC-SHA256 600,000 iterations.
        case standard
        /// The cheapest the formats allow, for tests only.
        case testing
    }

    /// PBKDF2-HMAC-SHA256 iterations of `.standard`.
    public static let standardPBKDF2Iterations = 600_000
    /// Largest iteration count accepted from a stored string (bounds the work a stored string can cause).
    public static let maximumPBKDF2Iterations = 10_000_000
    static let saltByteCount = 16
    static let hashByteCount = 32

    /// A new verifier of `password` with a fresh random salt.
    public static func make(password: String, strength: Strength = .standard) throws(CryptoError) -> String {
        #if LATCHKEY_APPLE_FRAMEWORKS
        return try makePBKDF2(password: password, iterations: strength == .standard ? standardPBKDF2Iterations : 1)
        #else
        return try Argon2id.hash(password: Data(password.utf8), parameters: argon2Parameters(strength))
        #endif
    }

    /// Whether `password` matches `stored` (constant-time comparison). Throws `.malformedInput` for a string that is
    /// not a well-formed verifier and `.unsupportedAlgorithm` for a format this platform cannot compute.
    public static func verify(password: String, against stored: String) throws(CryptoError) -> Bool {
        if stored.hasPrefix("$pbkdf2-sha256$") {
            let parsed = try PBKDF2String.parse(stored)
            let derived = try PBKDF2.deriveKey(password: Data(password.utf8), salt: parsed.salt,
                                               iterations: parsed.iterations, outputByteCount: parsed.hash.count)
            return derived.withUnsafeBytes { ConstantTime.equals(Data($0), parsed.hash) }
        }
        #if LATCHKEY_APPLE_FRAMEWORKS
        throw .unsupportedAlgorithm(stored.hasPrefix("$argon2id$") ? "Argon2id (Linux only)" : "password verifier")
        #else
        return try Argon2id.verify(password: Data(password.utf8), against: stored)
        #endif
    }

    /// True when `stored` is weaker than what `make(password:strength:)` would make now, or of another format, or
    /// cannot be parsed: after a successful login, replace it.
    public static func needsRehash(_ stored: String, strength: Strength = .standard) -> Bool {
        #if LATCHKEY_APPLE_FRAMEWORKS
        guard let parsed = try? PBKDF2String.parse(stored) else { return true }
        return parsed.iterations < (strength == .standard ? standardPBKDF2Iterations : 1)
        #else
        return Argon2id.needsRehash(stored, parameters: argon2Parameters(strength))
        #endif
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS
    static func argon2Parameters(_ strength: Strength) -> Argon2id.Parameters {
        strength == .standard ? .owasp : Argon2id.Parameters(memoryKiB: Argon2id.Parameters.minimumMemoryKiB, iterations: 1)
    }
    #endif

    /// A `$pbkdf2-sha256$i=…$<salt>$<hash>` verifier (available on every platform; `make` uses it on Apple's).
    public static func makePBKDF2(password: String, iterations: Int = standardPBKDF2Iterations) throws(CryptoError) -> String {
        guard (1...maximumPBKDF2Iterations).contains(iterations) else {
            throw .invalidParameter("PBKDF2 iterations must be 1...\(maximumPBKDF2Iterations)")
        }
        let salt = SecureRandom.bytes(count: saltByteCount)
        let key = try PBKDF2.deriveKey(password: Data(password.utf8), salt: salt, iterations: iterations,
                                       outputByteCount: hashByteCount)
        let hash = key.withUnsafeBytes { Data($0) }
        return "$pbkdf2-sha256$i=\(iterations)$\(salt.unpaddedBase64EncodedString())$\(hash.unpaddedBase64EncodedString())"
    }
}

/// A parsed `$pbkdf2-sha256$i=<iterations>$<salt>$<hash>` string (strict: exact fields, decimal iterations without
/// leading zeros within bounds, canonical unpadded base64, 8–64-byte salt, 16–64-byte hash).
struct PBKDF2String: Sendable, Hashable {
    let iterations: Int
    let salt: Data
    let hash: Data

    static func parse(_ string: String) throws(CryptoError) -> PBKDF2String {
        guard string.utf8.count <= 512, string.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw .malformedInput("PBKDF2 verifier")
        }
        let fields = string.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "pbkdf2-sha256", fields[2].hasPrefix("i="),
              let iterations = Int(fields[2].dropFirst(2)), String(iterations) == fields[2].dropFirst(2),
              (1...PasswordHash.maximumPBKDF2Iterations).contains(iterations),
              let salt = Data(unpaddedBase64Encoded: fields[3]), (8...64).contains(salt.count),
              salt.unpaddedBase64EncodedString() == fields[3],
              let hash = Data(unpaddedBase64Encoded: fields[4]), (16...64).contains(hash.count),
              hash.unpaddedBase64EncodedString() == fields[4]
        else { throw .malformedInput("PBKDF2 verifier") }
        return PBKDF2String(iterations: iterations, salt: salt, hash: hash)
    }
}
