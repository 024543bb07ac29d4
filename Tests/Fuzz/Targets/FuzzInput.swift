import Foundation

/// Reads structured choices from fuzz bytes; past the end every read gives zeros, so any input is usable.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return value
    }

    /// A length byte, then that many bytes (fewer at the end of the input).
    mutating func data() -> Data {
        let count = min(Int(byte()), bytes.count - min(offset, bytes.count))
        defer { offset += count }
        return Data(bytes[offset..<offset + count])
    }

    mutating func string() -> String { String(decoding: data(), as: UTF8.self) }

    /// Everything not read yet.
    mutating func rest() -> Data {
        guard offset < bytes.count else { return Data() }
        defer { offset = bytes.count }
        return Data(bytes[offset...])
    }
}

/// Writes the bytes `FuzzInput` reads back as the same choices (for seeds).
struct FuzzInputWriter {
    private(set) var data = Data()

    mutating func byte(_ value: UInt8) { data.append(value) }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func data(_ value: Data) {
        let part = value.prefix(255)
        data.append(UInt8(part.count))
        data.append(part)
    }

    mutating func string(_ value: String) { data(Data(value.utf8)) }

    mutating func rest(_ value: Data) { data.append(value) }
}
