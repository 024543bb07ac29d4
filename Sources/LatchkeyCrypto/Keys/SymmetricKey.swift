import CSodium
import Foundation
import LatchkeySupport

/// Secret key bytes in their own allocation, zeroed when the key is released.
///
/// `description` and `debugDescription` show only the size; `==` compares in constant time.
public final class SymmetricKey: @unchecked Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable, ContiguousBytes
{
    // @unchecked Sendable is safe: the bytes are written only during init and are read-only afterwards.
    private let storage: UnsafeMutableRawPointer
    /// The key length in bytes.
    public let byteCount: Int
    /// OpenSSL contexts keyed with these bytes, made on first use and freed (cleansed) with the key.
    let contexts = Locked(KeyedContextSlots())

    /// A new random key (libsodium CSPRNG) of `size`.
    public convenience init(size: SymmetricKeySize = .bits256) {
        self.init(uninitializedByteCount: max(0, (size.bitCount + 7) / 8)) { buffer in
            SecureRandom.fill(buffer)
        }
    }

    /// A key holding a copy of `data`. The caller should zero its own copy when done with it.
    public convenience init(data: some ContiguousBytes) {
        let count = data.withUnsafeBytes { $0.count }
        self.init(uninitializedByteCount: count) { buffer in
            data.withUnsafeBytes { source in
                if let base = source.baseAddress, let target = buffer.baseAddress, source.count == buffer.count {
                    target.copyMemory(from: base, byteCount: source.count)
                }
            }
        }
    }

    /// Allocates `byteCount` bytes and lets `initializer` write all of them (used by the KDFs to derive in place).
    init<E: Error>(
        uninitializedByteCount byteCount: Int,
        initializer: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        self.byteCount = byteCount
        storage = UnsafeMutableRawPointer.allocate(byteCount: max(1, byteCount), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, byteCount))
        do {
            try initializer(UnsafeMutableRawBufferPointer(start: storage, count: byteCount))
        } catch {
            sodium_memzero(storage, max(1, byteCount))
            storage.deallocate()
            throw error
        }
    }

    deinit {
        sodium_memzero(storage, max(1, byteCount))
        storage.deallocate()
    }

    /// The key length in bits.
    public var bitCount: Int { byteCount * 8 }

    /// Calls `body` with the key bytes. Do not let the pointer escape.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: byteCount))
    }

    /// The key bytes for OpenSSL calls inside the module (valid while the key is alive).
    var keyBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: byteCount) }

    /// Typed-throws form used inside the module.
    @inline(__always)
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: byteCount))
    }

    /// Constant-time comparison of the key bytes (the lengths are compared first; they are not secret).
    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
        if lhs === rhs { return true }
        return ConstantTime.equals(
            UnsafeRawBufferPointer(start: lhs.storage, count: lhs.byteCount),
            UnsafeRawBufferPointer(start: rhs.storage, count: rhs.byteCount))
    }

    /// "SymmetricKey(256 bits)": the size only, never the bytes.
    public var description: String { "SymmetricKey(\(bitCount) bits)" }

    /// Same as `description`.
    public var debugDescription: String { description }

    /// No children, so `dump` and debuggers show the size only.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
