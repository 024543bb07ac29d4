import CSodium
import Foundation
import LatchkeySupport

/// Secret key bytes in their own allocation, zeroed (libsodium `sodium_memzero`) when released: the storage behind
/// CryptoKit's `SymmetricKey` and every derived key on Linux.
///
/// `description` and `debugDescription` show only the size; `==` compares in constant time. OpenSSL contexts keyed
/// with these bytes (`KeyedContextSlots`) are made on first use and freed (cleansed) with them.
package final class SecretBytes: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    // @unchecked Sendable is safe: the bytes are written only during init and are read-only afterwards; the keyed
    // contexts are used only under their lock.
    private let storage: UnsafeMutableRawPointer
    /// The key length in bytes.
    package let byteCount: Int
    /// OpenSSL contexts keyed with these bytes, made on first use and freed (cleansed) with them.
    let contexts = Locked(KeyedContextSlots())

    /// `byteCount` random bytes (libsodium CSPRNG).
    package convenience init(randomByteCount byteCount: Int) {
        self.init(uninitializedByteCount: max(0, byteCount)) { buffer in SodiumRandom.fill(buffer) }
    }

    /// A copy of `bytes`. The caller should zero its own copy when done with it.
    package convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(uninitializedByteCount: bytes.count) { buffer in
            if let base = bytes.baseAddress, let target = buffer.baseAddress, bytes.count == buffer.count {
                target.copyMemory(from: base, byteCount: bytes.count)
            }
        }
    }

    /// Allocates `byteCount` bytes and lets `initializer` write all of them (used by the KDFs to derive in place).
    package init<E: Error>(
        uninitializedByteCount byteCount: Int,
        initializer: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        self.byteCount = byteCount
        storage = UnsafeMutableRawPointer.allocate(byteCount: max(1, byteCount), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, byteCount))
        // Every stored property is set, so a throw from here on runs `deinit`, which zeroes and frees the storage
        // (freeing it here as well would free it twice).
        try initializer(UnsafeMutableRawBufferPointer(start: storage, count: byteCount))
    }

    deinit {
        sodium_memzero(storage, max(1, byteCount))
        storage.deallocate()
    }

    /// The bytes, valid while this object is alive.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: byteCount) }

    /// Calls `body` with the bytes (typed throws). Do not let the pointer escape.
    @inline(__always)
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: byteCount))
    }

    /// Constant-time comparison of the bytes (the lengths are compared first; they are not secret).
    package func hasSameBytes(as other: SecretBytes) -> Bool {
        if self === other { return true }
        return MemoryCompare.equals(bytes, other.bytes)
    }

    /// "SecretBytes(32 bytes)": the size only, never the bytes.
    package var description: String { "SecretBytes(\(byteCount) bytes)" }

    /// Same as `description`.
    package var debugDescription: String { description }

    /// No children, so `dump` and debuggers show the size only.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
