#if !LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import LatchkeyOpenSSL

/// Argon2id (RFC 9106), version 0x13, by libsodium `crypto_pwhash` (`crypto_pwhash_ALG_ARGON2ID13`). Linux only:
/// Apple's frameworks have no Argon2; `PasswordHash` uses PBKDF2 there.
///
/// ```swift
/// let stored = try Argon2id.hash(password: Data("hunter2".utf8))          // "$argon2id$v=19$m=19456,t=2,p=1$…"
/// let ok = try Argon2id.verify(password: Data("hunter2".utf8), against: stored)
/// if Argon2id.needsRehash(stored, parameters: .moderate) { /* hash again after a successful login */ }
/// ```
public enum Argon2id {
    /// Salt length for ``deriveKey(password:salt:parameters:outputByteCount:)`` (libsodium: 16 bytes).
    public static var saltByteCount: Int { Argon2idEngine.saltByteCount }
    /// Accepted output lengths for key derivation.
    public static let outputByteCountRange = 16...1024

    /// Derives a key from `password` and a 16-byte `salt` (raw Argon2id output, no string encoding).
    public static func deriveKey(
        password: some DataProtocol, salt: Data, parameters: Parameters, outputByteCount: Int = 32
    ) throws(CryptoError) -> SymmetricKey {
        try parameters.validateForComputing()
        guard salt.count == saltByteCount else { throw .invalidParameter("Argon2id salt must be \(saltByteCount) bytes") }
        guard outputByteCountRange.contains(outputByteCount) else {
            throw .invalidParameter("Argon2id output must be \(outputByteCountRange.lowerBound)...\(outputByteCountRange.upperBound) bytes")
        }
        return try ContiguousBytesInput.with(password) { (pass) throws(CryptoError) in
            try ContiguousBytesInput.with(salt) { (saltBytes) throws(CryptoError) in
                SymmetricKey(secret: try Argon2idEngine.deriveKey(
                    password: pass, salt: saltBytes, iterations: parameters.iterations,
                    memoryBytes: parameters.memoryKiB * 1024, outputByteCount: outputByteCount))
            }
        }
    }

    /// Hashes `password` with a fresh random 16-byte salt; returns the PHC string
    /// `$argon2id$v=19$m=…,t=…,p=1$<salt>$<hash>` (libsodium `crypto_pwhash_str_alg`, 32-byte hash).
    public static func hash(password: some DataProtocol, parameters: Parameters = .owasp) throws(CryptoError) -> String {
        try parameters.validateForComputing()
        return try ContiguousBytesInput.with(password) { (pass) throws(CryptoError) in
            try Argon2idEngine.hash(password: pass, iterations: parameters.iterations,
                                    memoryBytes: parameters.memoryKiB * 1024)
        }
    }

    /// Checks `password` against a stored PHC string in constant time (libsodium `crypto_pwhash_str_verify`).
    /// Throws `.malformedInput` when `phc` is not a well-formed, in-bounds argon2id string.
    public static func verify(password: some DataProtocol, against phc: String) throws(CryptoError) -> Bool {
        _ = try PHCString.parse(phc)
        return ContiguousBytesInput.with(password) { Argon2idEngine.verify(password: $0, against: phc) }
    }

    /// True when `phc` was made with less memory or fewer passes than `parameters`, or cannot be parsed.
    public static func needsRehash(_ phc: String, parameters: Parameters) -> Bool {
        guard let stored = try? PHCString.parse(phc) else { return true }
        return stored.parameters.memoryKiB < parameters.memoryKiB || stored.parameters.iterations < parameters.iterations
    }
}
#endif
