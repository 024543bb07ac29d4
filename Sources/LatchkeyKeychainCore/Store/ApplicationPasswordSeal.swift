import CryptoKit
import Foundation
import LatchkeyAuthCore
#if LATCHKEY_APPLE_FRAMEWORKS
import CommonCrypto
#else
import LatchkeyOpenSSL
#endif

/// The application-password layer of `.applicationPassword` items — the one place the portable keychain core uses
/// cryptography. The value is sealed with AES-256-GCM (CryptoKit) under a key derived from the application password
/// and a random salt (`ApplicationPasswordKDF`); every store keeps the sealed form as the item's value (a vault seals
/// it again under its own keys), so the item cannot be read without the password even while the store is open.
///
/// Sealed form: "LKAP" ‖ version ‖ cost 1 (4 bytes, big-endian) ‖ cost 2 (4 bytes) ‖ salt (16 bytes) ‖ AES-GCM box
/// (nonce ‖ ciphertext ‖ tag); everything before the box is its associated data. Version 1: Argon2id, memory KiB and
/// passes; version 2: PBKDF2-HMAC-SHA256, 0 and rounds.
package enum ApplicationPasswordSeal {
    private static let magic: [UInt8] = Array("LKAP".utf8)
    private static let argon2idVersion: UInt8 = 1
    private static let pbkdf2Version: UInt8 = 2
    /// Bounds on the costs a stored header may ask for, checked before any work.
    private static let argon2idMemoryKiB = 8...(1 << 20), argon2idPasses = 1...64, pbkdf2Rounds = 1...10_000_000
    private static let saltByteCount = 16
    private static let headerByteCount = 4 + 1 + 4 + 4 + 16

    /// Seals `value` under `password`. The key is zeroed when released (`SymmetricKey`).
    package static func seal(_ value: Data, password: Passcode, kdf: ApplicationPasswordKDF) throws(KeychainStoreError) -> Data {
        let salt = SymmetricKey(size: SymmetricKeySize(bitCount: saltByteCount * 8)).withUnsafeBytes { Data($0) }
        var header = Data(magic)
        switch kdf.function {
        case let .argon2id(memoryKiB, iterations):
            header.append(argon2idVersion)
            appendUInt32(memoryKiB, to: &header)
            appendUInt32(iterations, to: &header)
        case let .pbkdf2SHA256(iterations):
            header.append(pbkdf2Version)
            appendUInt32(0, to: &header)
            appendUInt32(iterations, to: &header)
        }
        header.append(salt)
        let key = try deriveKey(password, salt: salt, kdf: kdf)
        // A 12-byte nonce always has a combined form.
        guard let combined = try? AES.GCM.seal(value, using: key, authenticating: header).combined else {
            throw KeychainStoreError(.internalComponent)
        }
        return header + combined
    }

    /// Opens a sealed value; errSecAuthFailed (`.wrongApplicationPassword`) when `password` is not the one it was
    /// sealed with, errSecDecode when the bytes are not a sealed value.
    package static func open(_ sealed: Data, password: Passcode) throws(KeychainStoreError) -> Data {
        let bytes = [UInt8](sealed)
        guard bytes.count > headerByteCount, Array(bytes[0..<4]) == magic else {
            throw KeychainStoreError(.decode, .corruptItem)
        }
        let cost1 = readUInt32(bytes, at: 5), cost2 = readUInt32(bytes, at: 9)
        // Bounds before any work: a damaged header must not ask for gigabytes of memory or hours of rounds.
        let kdf: ApplicationPasswordKDF
        switch bytes[4] {
        case argon2idVersion where argon2idMemoryKiB.contains(cost1) && argon2idPasses.contains(cost2):
            kdf = ApplicationPasswordKDF(.argon2id(memoryKiB: cost1, iterations: cost2))
        case pbkdf2Version where cost1 == 0 && pbkdf2Rounds.contains(cost2):
            kdf = ApplicationPasswordKDF(.pbkdf2SHA256(iterations: cost2))
        default:
            throw KeychainStoreError(.decode, .corruptItem)
        }
        let header = Data(bytes[0..<headerByteCount])
        let key = try deriveKey(password, salt: Data(bytes[13..<headerByteCount]), kdf: kdf)
        let box: AES.GCM.SealedBox
        do { box = try AES.GCM.SealedBox(combined: Data(bytes[headerByteCount...])) } catch {
            throw KeychainStoreError(.decode, .corruptItem)
        }
        do {
            return try AES.GCM.open(box, using: key, authenticating: header)
        } catch {
            throw KeychainStoreError(.authFailed, .wrongApplicationPassword)
        }
    }

    /// True when `value` has the sealed form's header (a value stored by `seal`).
    package static func isSealed(_ value: Data) -> Bool {
        value.count > headerByteCount && value.prefix(4).elementsEqual(magic)
    }

    private static func deriveKey(_ password: Passcode, salt: Data, kdf: ApplicationPasswordKDF) throws(KeychainStoreError) -> SymmetricKey {
        let key: SymmetricKey?
        switch kdf.function {
        case let .argon2id(memoryKiB, iterations):
            guard argon2idMemoryKiB.contains(memoryKiB), argon2idPasses.contains(iterations) else {
                throw KeychainStoreError(.param, .malformedQuery(key: "accc"))
            }
            #if LATCHKEY_APPLE_FRAMEWORKS
            throw KeychainStoreError(.unimplemented, .unsupportedAccessControl)  // no Argon2 in Apple's frameworks
            #else
            key = password.withBytes { pass in
                salt.withUnsafeBytes { saltBytes in
                    (try? Argon2idEngine.deriveKey(password: UnsafeRawBufferPointer(pass), salt: saltBytes,
                                                   iterations: iterations, memoryBytes: memoryKiB * 1024,
                                                   outputByteCount: 32)).map(SymmetricKey.init(secret:))
                }
            }
            #endif
        case let .pbkdf2SHA256(iterations):
            guard pbkdf2Rounds.contains(iterations) else { throw KeychainStoreError(.param, .malformedQuery(key: "accc")) }
            key = pbkdf2SHA256(password, salt: salt, rounds: iterations)
        }
        guard let key else { throw KeychainStoreError(.internalComponent) }
        return key
    }

    /// PBKDF2-HMAC-SHA256 into a 32-byte key, or nil when the library fails.
    private static func pbkdf2SHA256(_ password: Passcode, salt: Data, rounds: Int) -> SymmetricKey? {
        password.withBytes { pass in
            salt.withUnsafeBytes { saltBytes in
                #if LATCHKEY_APPLE_FRAMEWORKS
                var out = [UInt8](repeating: 0, count: 32)
                defer { for i in out.indices { out[i] = 0 } }
                let status = pass.withMemoryRebound(to: CChar.self) { chars in
                    CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), chars.baseAddress, chars.count,
                                         saltBytes.bindMemory(to: UInt8.self).baseAddress, saltBytes.count,
                                         CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), UInt32(rounds), &out, out.count)
                }
                return status == kCCSuccess ? SymmetricKey(data: out) : nil
                #else
                return (try? PBKDF2Engine.deriveKey(password: UnsafeRawBufferPointer(pass), salt: saltBytes,
                                                    iterations: rounds, digest: .sha256, outputByteCount: 32))
                    .map(SymmetricKey.init(secret:))
                #endif
            }
        }
    }

    private static func appendUInt32(_ value: Int, to data: inout Data) {
        let v = UInt32(clamping: value)
        data.append(contentsOf: [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)])
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}
