import CSodium
import Foundation
import LatchkeySupport

/// Argon2id (RFC 9106), version 0x13, by libsodium `crypto_pwhash` (`crypto_pwhash_ALG_ARGON2ID13`). Parameters
/// are checked by the caller (LatchkeyCrypto's `Argon2id`).
package enum Argon2idEngine {
    /// Salt length (libsodium: 16 bytes).
    package static var saltByteCount: Int { Int(crypto_pwhash_argon2id_saltbytes()) }
    /// Smallest memory cost in KiB (libsodium's minimum, 8 KiB) and pass count (1) for Argon2id.
    package static var minimumMemoryKiB: Int { Int(crypto_pwhash_argon2id_memlimit_min()) / 1024 }
    package static var minimumIterations: Int { Int(crypto_pwhash_argon2id_opslimit_min()) }
    /// Largest memory cost accepted anywhere (1 GiB), so a stored string or vault cannot make us allocate without
    /// bound; largest pass count; largest lane count accepted when verifying a PHC string.
    package static let maximumMemoryKiB = 1 << 20
    package static let maximumIterations = 64
    package static let maximumParallelism = 255

    /// Throws `.invalidParameter` unless libsodium can compute these parameters (one lane) within the bounds.
    package static func validateForComputing(memoryKiB: Int, iterations: Int, parallelism: Int = 1) throws(CryptoError) {
        guard parallelism == 1 else {
            throw .invalidParameter("Argon2id parallelism must be 1 (libsodium computes a single lane)")
        }
        try validateBounds(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
    }

    /// Range checks shared by computing and parsing.
    package static func validateBounds(memoryKiB: Int, iterations: Int, parallelism: Int) throws(CryptoError) {
        guard memoryKiB >= minimumMemoryKiB, memoryKiB <= maximumMemoryKiB else {
            throw .invalidParameter("Argon2id memory must be \(minimumMemoryKiB)...\(maximumMemoryKiB) KiB")
        }
        guard iterations >= minimumIterations, iterations <= maximumIterations else {
            throw .invalidParameter("Argon2id iterations must be \(minimumIterations)...\(maximumIterations)")
        }
        guard parallelism >= 1, parallelism <= maximumParallelism, memoryKiB >= 8 * parallelism else {
            throw .invalidParameter("Argon2id parallelism must be 1...\(maximumParallelism) with m ≥ 8·p")
        }
    }

    /// Raw Argon2id output of `outputByteCount` bytes (the parameters are checked first).
    package static func deriveKey(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
                                  iterations: Int, memoryBytes: Int, outputByteCount: Int) throws(CryptoError)
        -> SecretBytes {
        try validateForComputing(memoryKiB: memoryBytes / 1024, iterations: iterations)
        guard salt.count == saltByteCount else { throw .invalidParameter("Argon2id salt must be \(saltByteCount) bytes") }
        guard (16...1024).contains(outputByteCount) else { throw .invalidParameter("Argon2id output must be 16...1024 bytes") }
        SodiumRuntime.ensureInitialized()
        return try SecretBytes(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            guard let outBase = out.baseAddress else { throw .invalidParameter("empty Argon2id output") }
            let result = crypto_pwhash(
                outBase.assumingMemoryBound(to: UInt8.self), UInt64(out.count),
                ContiguousInput.pointer(password).assumingMemoryBound(to: CChar.self), UInt64(password.count),
                ContiguousInput.pointer(salt).assumingMemoryBound(to: UInt8.self),
                UInt64(iterations), memoryBytes, crypto_pwhash_alg_argon2id13())
            guard result == 0 else { throw .libraryFailure("crypto_pwhash") }
        }
    }

    /// The PHC string `$argon2id$v=19$m=…,t=…,p=1$<salt>$<hash>` of `password` with a fresh random salt
    /// (libsodium `crypto_pwhash_str_alg`, 32-byte hash).
    package static func hash(password: UnsafeRawBufferPointer, iterations: Int, memoryBytes: Int) throws(CryptoError)
        -> String {
        SodiumRuntime.ensureInitialized()
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
        let result = crypto_pwhash_str_alg(&out, ContiguousInput.pointer(password).assumingMemoryBound(to: CChar.self),
                                           UInt64(password.count), UInt64(iterations), memoryBytes,
                                           crypto_pwhash_alg_argon2id13())
        guard result == 0 else { throw .libraryFailure("crypto_pwhash_str_alg") }
        return out.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// True when `password` matches the PHC string `phc` (libsodium `crypto_pwhash_str_verify`, constant time).
    package static func verify(password: UnsafeRawBufferPointer, against phc: String) -> Bool {
        SodiumRuntime.ensureInitialized()
        let result = phc.withCString { encoded in
            crypto_pwhash_str_verify(encoded, ContiguousInput.pointer(password).assumingMemoryBound(to: CChar.self),
                                     UInt64(password.count))
        }
        return result == 0
    }
}
