#if !LATCHKEY_APPLE_FRAMEWORKS
import Foundation

extension Argon2id {
    /// A parsed `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>` string (PHC string format,
    /// unpadded standard base64). The parser is strict: exact field order, decimal numbers without
    /// leading zeros, canonical base64, and the bounds of ``Parameters`` (no huge `m`).
    public struct PHCString: Sendable, Hashable {
        /// The cost parameters recorded in the string.
        public let parameters: Parameters
        /// The salt (8 ... 64 bytes).
        public let salt: Data
        /// The hash (16 ... 64 bytes).
        public let hash: Data

        /// Longest string accepted.
        public static let maximumLength = 512
        static let saltRange = 8...64
        static let hashRange = 16...64

        /// Parses `string`; throws `.malformedInput` for any deviation, including out-of-range costs.
        public static func parse(_ string: String) throws(CryptoError) -> PHCString {
            let utf8 = Array(string.utf8)
            guard utf8.count <= maximumLength else { throw .malformedInput("PHC string too long") }
            guard utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                throw .malformedInput("PHC string has characters outside printable ASCII")
            }
            let fields = string.split(separator: "$", omittingEmptySubsequences: false)
            guard fields.count == 6, fields[0].isEmpty else { throw .malformedInput("PHC string must have 5 fields") }
            guard fields[1] == "argon2id" else { throw .malformedInput("PHC string is not argon2id") }
            guard fields[2] == "v=19" else { throw .malformedInput("PHC string version must be v=19") }

            let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
            guard costs.count == 3 else { throw .malformedInput("PHC parameters must be m=,t=,p=") }
            let m = try number(costs[0], key: "m")
            let t = try number(costs[1], key: "t")
            let p = try number(costs[2], key: "p")
            let parameters = Parameters(memoryKiB: m, iterations: t, parallelism: p)
            do {
                try parameters.validateBounds()
            } catch {
                throw .malformedInput("PHC parameters out of range")
            }

            let salt = try base64(fields[4], range: saltRange, what: "salt")
            let hash = try base64(fields[5], range: hashRange, what: "hash")
            return PHCString(parameters: parameters, salt: salt, hash: hash)
        }

        /// The canonical string form.
        public var encoded: String {
            "$argon2id$v=19$m=\(parameters.memoryKiB),t=\(parameters.iterations),p=\(parameters.parallelism)$"
                + salt.unpaddedBase64EncodedString() + "$" + hash.unpaddedBase64EncodedString()
        }

        private static func number(_ field: Substring, key: String) throws(CryptoError) -> Int {
            let prefix = key + "="
            guard field.hasPrefix(prefix) else { throw .malformedInput("PHC parameter \(key)= expected") }
            let digits = field.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.count <= 10, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  digits.count == 1 || digits.first != "0", let value = Int(digits)
            else { throw .malformedInput("PHC parameter \(key) is not a canonical decimal number") }
            return value
        }

        private static func base64(_ field: Substring, range: ClosedRange<Int>, what: String) throws(CryptoError) -> Data {
            guard field.utf8.allSatisfy({ isBase64Byte($0) }), let data = Data(unpaddedBase64Encoded: field),
                  data.unpaddedBase64EncodedString() == field
            else { throw .malformedInput("PHC \(what) is not canonical unpadded base64") }
            guard range.contains(data.count) else {
                throw .malformedInput("PHC \(what) must be \(range.lowerBound)...\(range.upperBound) bytes")
            }
            return data
        }

        private static func isBase64Byte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"): true
            default: false
            }
        }
    }
}
#endif
