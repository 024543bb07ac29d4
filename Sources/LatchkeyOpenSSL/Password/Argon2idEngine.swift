import CSodium
import Foundation
import LatchkeySupport

/// Argon2id (RFC 9106), version 0x13, by libsodium `crypto_pwhash` (`crypto_pwhash_ALG_ARGON2ID13`). Parameters
/// are checked by the caller (LatchkeyCrypto's `Argon2id`).
package enum Argon2idEngine {
    /// Salt length (libsodium: 16 bytes).
    package static var saltByteCount: Int { Int(crypto_pwhash_argon2id_saltbytes()) }
    /// libsodium's smallest memory cost in bytes and pass count for Argon2id.
    package static var minimumMemoryBytes: Int { Int(crypto_pwhash_argon2id_memlimit_min()) }
    package static var minimumIterations: Int { Int(crypto_pwhash_argon2id_opslimit_min()) }

    /// Raw Argon2id output of `outputByteCount` bytes.
    package static func deriveKey(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
                                  iterations: Int, memoryBytes: Int, outputByteCount: Int) throws(CryptoError)
        -> SecretBytes {
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
