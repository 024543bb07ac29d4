import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Copies between Swift bytes and the fixed-size arrays of tpm2-tss structures (C arrays import as tuples), and
/// wipes structures that held an authorization value.
enum TPMBytes {
    /// Writes `bytes` at the start of `buffer`; the count written, or nil when they do not fit.
    static func store<Buffer>(_ bytes: some DataProtocol, into buffer: inout Buffer) -> UInt16? {
        withUnsafeMutableBytes(of: &buffer) { raw -> UInt16? in
            guard bytes.count <= raw.count, let count = UInt16(exactly: bytes.count) else { return nil }
            raw.copyBytes(from: bytes)
            return count
        }
    }

    /// The first `count` bytes of `buffer` (all of them when `count` is larger).
    static func load<Buffer>(_ buffer: Buffer, count: UInt16) -> Data {
        withUnsafeBytes(of: buffer) { Data($0.prefix(Int(count))) }
    }

    /// `value` big-endian, left-padded with zeros to `width` bytes (TPM integers drop leading zeros).
    static func padded(_ value: Data, to width: Int) -> Data? {
        guard value.count <= width else { return nil }
        return Data(repeating: 0, count: width - value.count) + value
    }

    /// Overwrites `value`'s memory with zeros in a way the compiler keeps.
    static func wipe<T>(_ value: inout T) {
        withUnsafeMutableBytes(of: &value) { raw in
            guard let base = raw.baseAddress else { return }
            #if canImport(Glibc)
            explicit_bzero(base, raw.count)
            #else
            memset(base, 0, raw.count)
            #endif
        }
    }
}
