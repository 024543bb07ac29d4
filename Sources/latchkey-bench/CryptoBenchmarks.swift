import COpenSSL
import CSodium
import Foundation
import LatchkeyCrypto

/// LatchkeyCrypto wrappers against the same C calls made directly. Baselines use the same algorithm objects
/// (fetched once, as the wrappers do) and write into preallocated buffers; the wrappers also allocate their
/// `Data` results, so the ratio is the whole cost of the Swift layer.
enum CryptoBenchmarks {
    static let all: [Benchmark] = [
        argon2idHash, aesGCMSeal, aesGCMSeal16K, aesGCMOpen, chaChaPolySeal, hmacSHA256, sha256, hkdf,
    ]

    /// A C buffer owned by one benchmark pair; each pair runs on one thread at a time.
    final class Buffer: @unchecked Sendable {  // safe: used by one benchmark closure at a time, freed in tearDown
        let pointer: UnsafeMutableRawPointer
        let count: Int
        init(count: Int) {
            self.count = count
            pointer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
            pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
        }
        func free() { pointer.deallocate() }
        var bytes: UnsafeMutablePointer<UInt8> { pointer.assumingMemoryBound(to: UInt8.self) }
    }

    /// A fetched OpenSSL algorithm object (immutable, shareable).
    struct Algorithm: @unchecked Sendable {  // safe: fetched EVP objects are immutable and reference counted
        let pointer: OpaquePointer?
    }

    struct BenchError: Error, CustomStringConvertible {
        let description: String
    }

    static let argon2idHash = Benchmark(
        name: "argon2id hash 64MiB/t=3/p=1", baselineName: "crypto_pwhash", unit: .timePerOperation, target: 1.05
    ) {
        _ = sodium_init()
        let password = Data("correct horse battery staple".utf8)
        let salt = Buffer(count: Int(crypto_pwhash_saltbytes()))
        randombytes_buf(salt.pointer, salt.count)
        let out = Buffer(count: 32), rawPassword = Buffer(count: password.count)
        password.copyBytes(to: rawPassword.bytes, count: password.count)
        let parameters = Argon2id.Parameters.moderate
        return .init(
            baseline: {
                let result = crypto_pwhash(out.bytes, 32, rawPassword.pointer.assumingMemoryBound(to: CChar.self),
                                           UInt64(rawPassword.count), salt.bytes, 3, 65536 * 1024,
                                           crypto_pwhash_alg_argon2id13())
                guard result == 0 else { throw BenchError(description: "crypto_pwhash failed") }
            },
            subject: { _ = try Argon2id.hash(password: password, parameters: parameters) },
            tearDown: { salt.free(); out.free(); rawPassword.free() })
    }

    static let aesGCMSeal = aesGCMSealFigure(size: 1024, label: "1KiB")
    static let aesGCMSeal16K = aesGCMSealFigure(size: 16384, label: "16KiB")

    static func aesGCMSealFigure(size: Int, label: String) -> Benchmark {
        aeadSealFigure(name: "aes-256-gcm", evpName: "AES-256-GCM", size: size, label: label) { nonceBytes in
            let nonce = try AES.GCM.Nonce(data: nonceBytes)
            return { plaintext, key in _ = try AES.GCM.seal(plaintext, using: key, nonce: nonce) }
        }
    }

    /// Sealing `size` bytes with `seal` (a CryptoKit AEAD with a fixed 12-byte nonce) against the same seal through
    /// raw EVP calls.
    static func aeadSealFigure(
        name: String, evpName: String, size: Int, label: String,
        sealer: @escaping @Sendable (Data) throws -> @Sendable (Data, SymmetricKey) throws -> Void
    ) -> Benchmark {
        Benchmark(name: "\(name) seal \(label)", baselineName: "raw EVP_EncryptInit_ex/Update/Final/GET_TAG",
                  unit: .timePerOperation, target: 1.10) {
            let cipher = Algorithm(pointer: EVP_CIPHER_fetch(nil, evpName, nil))
            let keyBytes = SecureRandom.bytes(count: 32)
            let key = SymmetricKey(data: keyBytes)
            let nonce = SecureRandom.bytes(count: 12)
            let seal = try sealer(nonce)
            let plaintext = SecureRandom.bytes(count: size)
            let rawKey = Buffer(count: 32), rawIV = Buffer(count: 12), out = Buffer(count: size + 16)
            keyBytes.copyBytes(to: rawKey.bytes, count: 32)
            nonce.copyBytes(to: rawIV.bytes, count: 12)
            return .init(
                baseline: {
                    guard let ctx = EVP_CIPHER_CTX_new() else { throw BenchError(description: "EVP_CIPHER_CTX_new") }
                    defer { EVP_CIPHER_CTX_free(ctx) }
                    var written: Int32 = 0, final: Int32 = 0
                    let ok = plaintext.withUnsafeBytes { p in
                        EVP_EncryptInit_ex(ctx, cipher.pointer, nil, rawKey.bytes, rawIV.bytes) == 1
                            && EVP_EncryptUpdate(ctx, out.bytes, &written,
                                                 p.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(p.count)) == 1
                            && EVP_EncryptFinal_ex(ctx, out.bytes + Int(written), &final) == 1
                            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out.bytes + size) == 1
                    }
                    guard ok else { throw BenchError(description: "raw \(evpName) seal failed") }
                },
                subject: { try seal(plaintext, key) },
                tearDown: { rawKey.free(); rawIV.free(); out.free() })
        }
    }

    static let aesGCMOpen = Benchmark(
        name: "aes-256-gcm open 1KiB", baselineName: "raw EVP_DecryptInit_ex/Update/SET_TAG/Final",
        unit: .timePerOperation, target: 1.10
    ) {
        let cipher = Algorithm(pointer: EVP_CIPHER_fetch(nil, "AES-256-GCM", nil))
        let keyBytes = SecureRandom.bytes(count: 32)
        let key = SymmetricKey(data: keyBytes)
        let box = try AES.GCM.seal(SecureRandom.bytes(count: 1024), using: key)
        let rawKey = Buffer(count: 32), rawIV = Buffer(count: 12), rawTag = Buffer(count: 16), out = Buffer(count: 1024)
        keyBytes.copyBytes(to: rawKey.bytes, count: 32)
        Data(box.nonce).copyBytes(to: rawIV.bytes, count: 12)
        box.tag.copyBytes(to: rawTag.bytes, count: 16)
        let ciphertext = box.ciphertext
        return .init(
            baseline: {
                guard let ctx = EVP_CIPHER_CTX_new() else { throw BenchError(description: "EVP_CIPHER_CTX_new") }
                defer { EVP_CIPHER_CTX_free(ctx) }
                var written: Int32 = 0, final: Int32 = 0
                let ok = ciphertext.withUnsafeBytes { c in
                    EVP_DecryptInit_ex(ctx, cipher.pointer, nil, rawKey.bytes, rawIV.bytes) == 1
                        && EVP_DecryptUpdate(ctx, out.bytes, &written, c.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                             Int32(c.count)) == 1
                        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, rawTag.pointer) == 1
                        && EVP_DecryptFinal_ex(ctx, out.bytes + Int(written), &final) == 1
                }
                guard ok else { throw BenchError(description: "raw AES-GCM open failed") }
            },
            subject: { _ = try AES.GCM.open(box, using: key) },
            tearDown: { rawKey.free(); rawIV.free(); rawTag.free(); out.free() })
    }

    static let chaChaPolySeal = aeadSealFigure(name: "chacha20-poly1305", evpName: "ChaCha20-Poly1305", size: 1024,
                                               label: "1KiB") { nonceBytes in
        let nonce = try ChaChaPoly.Nonce(data: nonceBytes)
        return { plaintext, key in _ = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce) }
    }

    static let hmacSHA256 = Benchmark(
        name: "hmac-sha256 1KiB", baselineName: "raw EVP_MAC_init/update/final", unit: .timePerOperation, target: 1.05
    ) {
        let mac = Algorithm(pointer: EVP_MAC_fetch(nil, "HMAC", nil))
        let keyBytes = SecureRandom.bytes(count: 32)
        let key = SymmetricKey(data: keyBytes)
        let message = SecureRandom.bytes(count: 1024)
        let rawKey = Buffer(count: 32), out = Buffer(count: 32)
        keyBytes.copyBytes(to: rawKey.bytes, count: 32)
        return .init(
            baseline: {
                guard let ctx = EVP_MAC_CTX_new(mac.pointer) else { throw BenchError(description: "EVP_MAC_CTX_new") }
                defer { EVP_MAC_CTX_free(ctx) }
                var written = 0
                let ok = "digest".withCString { digestKey in
                    "SHA2-256".withCString { digestName in
                        var params = [OSSL_PARAM_construct_utf8_string(digestKey, UnsafeMutablePointer(mutating: digestName), 0),
                                      OSSL_PARAM_construct_end()]
                        return message.withUnsafeBytes { m in
                            EVP_MAC_init(ctx, rawKey.bytes, 32, &params) == 1
                                && EVP_MAC_update(ctx, m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count) == 1
                                && EVP_MAC_final(ctx, out.bytes, &written, 32) == 1
                        }
                    }
                }
                guard ok else { throw BenchError(description: "raw HMAC failed") }
            },
            subject: { _ = HMAC<SHA256>.authenticationCode(for: message, using: key) },
            tearDown: { rawKey.free(); out.free() })
    }

    static let sha256 = Benchmark(
        name: "sha256 1KiB", baselineName: "raw EVP_Digest", unit: .timePerOperation, target: 1.05
    ) {
        let md = Algorithm(pointer: EVP_MD_fetch(nil, "SHA2-256", nil))
        let message = SecureRandom.bytes(count: 1024)
        let out = Buffer(count: 32)
        return .init(
            baseline: {
                let ok = message.withUnsafeBytes { m in EVP_Digest(m.baseAddress, m.count, out.bytes, nil, md.pointer, nil) }
                guard ok == 1 else { throw BenchError(description: "EVP_Digest failed") }
            },
            subject: { _ = SHA256.hash(data: message) },
            tearDown: { out.free() })
    }

    static let hkdf = Benchmark(
        name: "hkdf-sha256 32B", baselineName: "raw EVP_KDF_derive", unit: .timePerOperation, target: 1.05
    ) {
        let kdf = Algorithm(pointer: EVP_KDF_fetch(nil, "HKDF", nil))
        let ikmBytes = SecureRandom.bytes(count: 32)
        let ikm = SymmetricKey(data: ikmBytes)
        let salt = SecureRandom.bytes(count: 16), info = Data("latchkey item key".utf8)
        let rawIKM = Buffer(count: 32), rawSalt = Buffer(count: 16), rawInfo = Buffer(count: info.count)
        let out = Buffer(count: 32)
        ikmBytes.copyBytes(to: rawIKM.bytes, count: 32)
        salt.copyBytes(to: rawSalt.bytes, count: 16)
        info.copyBytes(to: rawInfo.bytes, count: info.count)
        return .init(
            baseline: {
                guard let ctx = EVP_KDF_CTX_new(kdf.pointer) else { throw BenchError(description: "EVP_KDF_CTX_new") }
                defer { EVP_KDF_CTX_free(ctx) }
                let ok = "digest".withCString { kDigest in
                    "SHA2-256".withCString { vDigest in
                        "key".withCString { kKey in
                            "salt".withCString { kSalt in
                                "info".withCString { kInfo in
                                    var params = [
                                        OSSL_PARAM_construct_utf8_string(kDigest, UnsafeMutablePointer(mutating: vDigest), 0),
                                        OSSL_PARAM_construct_octet_string(kKey, rawIKM.pointer, 32),
                                        OSSL_PARAM_construct_octet_string(kSalt, rawSalt.pointer, 16),
                                        OSSL_PARAM_construct_octet_string(kInfo, rawInfo.pointer, rawInfo.count),
                                        OSSL_PARAM_construct_end(),
                                    ]
                                    return EVP_KDF_derive(ctx, out.bytes, 32, &params)
                                }
                            }
                        }
                    }
                }
                guard ok == 1 else { throw BenchError(description: "EVP_KDF_derive failed") }
            },
            subject: { _ = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 32) },
            tearDown: { rawIKM.free(); rawSalt.free(); rawInfo.free(); out.free() })
    }
}
