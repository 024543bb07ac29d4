import Foundation
import LatchkeyAuthCore
import LatchkeyCrypto

/// How an application password becomes the key of an `.applicationPassword` item (Argon2id costs). The costs are
/// stored with each sealed value, so a value opens with the costs it was sealed with.
public struct ApplicationPasswordKDF: Sendable, Hashable {
    /// Argon2id memory in KiB.
    public var memoryKiB: Int
    /// Argon2id passes.
    public var iterations: Int

    /// Creates costs.
    public init(memoryKiB: Int, iterations: Int) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
    }

    /// The default: OWASP's minimum for Argon2id (19 MiB, 2 passes), paid on every read of such an item.
    public static let `default` = ApplicationPasswordKDF(memoryKiB: 19456, iterations: 2)
    /// Argon2id's smallest costs, for tests only.
    public static let testing = ApplicationPasswordKDF(memoryKiB: 8, iterations: 1)
}

/// The application-password layer of `.applicationPassword` items — the one place the portable keychain core uses
/// cryptography. The value is sealed with AES-256-GCM under a key derived with Argon2id from the application
/// password and a random salt; every store keeps the sealed form as the item's value (a vault seals it again under
/// its own keys), so the item cannot be read without the password even while the store is open.
///
/// Sealed form: "LKAP" ‖ version (1) ‖ memory KiB (4 bytes, big-endian) ‖ passes (4 bytes) ‖ salt (16 bytes) ‖
/// AES-GCM box (nonce ‖ ciphertext ‖ tag); everything before the box is its associated data.
package enum ApplicationPasswordSeal {
    private static let magic: [UInt8] = Array("LKAP".utf8)
    private static let version: UInt8 = 1
    private static let saltByteCount = 16
    private static let headerByteCount = 4 + 1 + 4 + 4 + 16

    /// Seals `value` under `password`. The key is zeroed when released (`SymmetricKey`).
    package static func seal(_ value: Data, password: Passcode, kdf: ApplicationPasswordKDF) throws(KeychainStoreError) -> Data {
        let salt = SecureRandom.bytes(count: saltByteCount)
        var header = Data(magic)
        header.append(version)
        appendUInt32(kdf.memoryKiB, to: &header)
        appendUInt32(kdf.iterations, to: &header)
        header.append(salt)
        let key = try deriveKey(password, salt: salt, kdf: kdf)
        do {
            return header + (try AES.GCM.seal(value, using: key, authenticating: header).combined)
        } catch {
            throw KeychainStoreError(.internalComponent)
        }
    }

    /// Opens a sealed value; errSecAuthFailed (`.wrongApplicationPassword`) when `password` is not the one it was
    /// sealed with, errSecDecode when the bytes are not a sealed value.
    package static func open(_ sealed: Data, password: Passcode) throws(KeychainStoreError) -> Data {
        let bytes = [UInt8](sealed)
        guard bytes.count > headerByteCount, Array(bytes[0..<4]) == magic, bytes[4] == version else {
            throw KeychainStoreError(.decode, .corruptItem)
        }
        let kdf = ApplicationPasswordKDF(memoryKiB: readUInt32(bytes, at: 5), iterations: readUInt32(bytes, at: 9))
        // Bounds before any work: a damaged header must not ask for gigabytes of memory.
        guard (8...(1 << 20)).contains(kdf.memoryKiB), (1...64).contains(kdf.iterations) else {
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
        do {
            return try password.withBytes { bytes in
                try Argon2id.deriveKey(password: bytes, salt: salt,
                                       parameters: .init(memoryKiB: kdf.memoryKiB, iterations: kdf.iterations),
                                       outputByteCount: 32)
            }
        } catch {
            throw KeychainStoreError(.param, .malformedQuery(key: "accc"))
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
