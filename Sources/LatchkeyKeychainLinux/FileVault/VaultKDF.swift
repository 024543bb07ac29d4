import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// How a passphrase becomes the key that wraps the vault key. Stored with the wrapped key, so a vault
/// opens with the parameters it was created with. Derived once per unlock, never per item.
public struct VaultKDF: Sendable, Hashable {
    /// The algorithm.
    public enum Algorithm: UInt8, Sendable, Hashable {
        /// Argon2id (libsodium).
        case argon2id = 1
        /// PBKDF2-HMAC-SHA256 (OpenSSL).
        case pbkdf2SHA256 = 2
    }

    /// The algorithm.
    public var algorithm: Algorithm
    /// Argon2id memory in KiB (ignored for PBKDF2).
    public var memoryKiB: Int
    /// Argon2id passes, or PBKDF2 iterations.
    public var iterations: Int

    /// Creates parameters.
    public init(algorithm: Algorithm, memoryKiB: Int, iterations: Int) {
        self.algorithm = algorithm
        self.memoryKiB = memoryKiB
        self.iterations = iterations
    }

    /// The default for new vaults: Argon2id, 64 MiB, 3 passes (≈ 0.1 s here).
    public static let `default` = VaultKDF(algorithm: .argon2id, memoryKiB: 65536, iterations: 3)
    /// Cheap parameters for tests only (Argon2id's minimum cost).
    public static let testing = VaultKDF(algorithm: .argon2id, memoryKiB: 8, iterations: 1)

    static let saltByteCount = 16

    func deriveKey(passphrase: String, salt: Data) throws(KeychainStoreError) -> SymmetricKey {
        do {
            switch algorithm {
            case .argon2id:
                return try Argon2id.deriveKey(password: Data(passphrase.utf8), salt: salt,
                                              parameters: .init(memoryKiB: memoryKiB, iterations: iterations),
                                              outputByteCount: 32)
            case .pbkdf2SHA256:
                return try PBKDF2.deriveKey(password: Data(passphrase.utf8), salt: salt, iterations: iterations,
                                            outputByteCount: 32)
            }
        } catch {
            throw KeychainStoreError(.param, .corruptVault("kdf parameters"))
        }
    }

    func encoded() -> Data {
        var out = Data([algorithm.rawValue])
        AttributeCoding.appendUInt64(UInt64(memoryKiB), to: &out)
        AttributeCoding.appendUInt64(UInt64(iterations), to: &out)
        return out
    }

    static func decode(_ r: inout AttributeCoding.Reader) throws(KeychainStoreError) -> VaultKDF {
        guard let alg = Algorithm(rawValue: try r.byte()) else { throw KeychainStoreError(.decode, .corruptVault("kdf")) }
        let m = try r.uint64(), t = try r.uint64()
        guard m <= 1 << 22, t >= 1, t <= 10_000_000 else { throw KeychainStoreError(.decode, .corruptVault("kdf")) }
        return VaultKDF(algorithm: alg, memoryKiB: Int(m), iterations: Int(t))
    }
}
