import Foundation

/// Reads `Any` values the way Core Foundation would accept them (NSNumber for booleans and numbers,
/// NSString/NSData/NSDate bridged), never trapping on a wrong type.
package enum DictionaryValues {
    package static func bool(_ v: Any) -> Bool? {
        if let b = v as? Bool { return b }
        if let n = v as? NSNumber { return n.boolValue }
        if let i = v as? Int { return i != 0 }
        return nil
    }

    package static func int(_ v: Any) -> Int64? {
        if v is Bool { return nil }
        if let i = v as? Int { return Int64(i) }
        if let i = v as? Int64 { return i }
        if let i = v as? Int32 { return Int64(i) }
        if let i = v as? UInt32 { return Int64(i) }
        if let i = v as? UInt { return i <= UInt(Int64.max) ? Int64(i) : nil }
        if let d = v as? Double { return d.rounded() == d && abs(d) < 9e18 ? Int64(d) : nil }
        if let n = v as? NSNumber, Double(n.int64Value) == n.doubleValue { return n.int64Value }
        return nil
    }

    package static func string(_ v: Any) -> String? {
        if let s = v as? String { return s }
        if let s = v as? NSString { return s as String }
        return nil
    }

    package static func data(_ v: Any) -> Data? {
        if let d = v as? Data { return d }
        if let d = v as? NSData { return d as Data }
        if let b = v as? [UInt8] { return Data(b) }
        return nil
    }

    package static func date(_ v: Any) -> Date? {
        if let d = v as? Date { return d }
        if let d = v as? NSDate { return d as Date }
        return nil
    }

    /// Converts to the kind an attribute needs; numeric strings are accepted for integers, and integers for
    /// the string-typed key type and key class ("73", "1"), as Core Foundation code passes both. Bytes given
    /// for a string blob attribute (`AttributeKey.isBlob`) stay bytes; for the access group (a string
    /// attribute in Apple's schema) UTF-8 bytes become the string.
    package static func attribute(_ v: Any, kind: AttributeValue.Kind, key: AttributeKey) -> AttributeValue? {
        switch kind {
        case .string:
            if let s = string(v) { return .string(s) }
            if key == .type || key == .keyClass, let i = int(v) { return .string(String(i)) }
            if let d = data(v) {
                if key.isBlob { return .data(d) } // kept as bytes, returned as `Data` (Apple's blob attributes)
                if key == .accessGroup, let s = String(validating: d, as: UTF8.self) { return .string(s) }
            }
            return nil
        case .data:
            if let d = data(v) { return .data(d) }
            if let s = string(v) { return .data(Data(s.utf8)) }
            return nil
        case .int:
            if let i = int(v) { return .int(i) }
            if let s = string(v), let i = Int64(s) { return .int(i) }
            return nil
        case .bool:
            return bool(v).map(AttributeValue.bool)
        }
    }
}
