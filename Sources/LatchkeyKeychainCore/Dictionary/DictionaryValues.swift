import Foundation
import LatchkeySupport

/// Reads `Any` values the way Core Foundation would accept them (NSNumber for booleans and numbers,
/// NSString/NSData/NSDate bridged), never trapping on a wrong type.
package enum DictionaryValues {
    /// True for a boolean: a Swift `Bool`, or an `NSNumber` made from one (`kCFBooleanTrue`/`False`; Linux keeps
    /// booleans as `NSNumber`s of type "c", and an `NSNumber` otherwise casts to `Bool` whatever its value).
    package static func isBoolean(_ v: Any) -> Bool {
        if type(of: v) == Bool.self { return true }
        guard let n = v as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    package static func bool(_ v: Any) -> Bool? {
        if let b = v as? Bool { return b }
        if let n = v as? NSNumber { return n.boolValue }
        if let i = v as? Int { return i != 0 }
        return nil
    }

    /// An integer (a boolean is not one).
    package static func int(_ v: Any) -> Int64? {
        if isBoolean(v) { return nil }
        if let n = v as? NSNumber { return Double(n.int64Value) == n.doubleValue ? n.int64Value : nil }
        if let i = v as? Int { return Int64(i) }
        if let i = v as? Int64 { return i }
        if let i = v as? Int32 { return Int64(i) }
        if let i = v as? UInt32 { return Int64(i) }
        if let i = v as? UInt { return i <= UInt(Int64.max) ? Int64(i) : nil }
        if let d = v as? Double { return d.rounded() == d && abs(d) < 9e18 ? Int64(d) : nil }
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

    /// The value an attribute of `itemClass` keeps for `v`, by Apple's conversion for the attribute's kind
    /// (`AttributeKey.SchemaKind`, after `SecDbItem.c`), or nil where Apple answers errSecParam:
    /// - blob: a string, bytes or a number, kept as given (a boolean or a date is refused);
    /// - number: a number, a boolean (0 or 1), or a string — a decimal 32-bit integer becomes that number, any other
    ///   string is kept; numbers are kept in the attribute's canonical kind (`AttributeKey.comparable`);
    /// - string: a string, or UTF-8 bytes as the string;
    /// - data: bytes, a string's UTF-8, or a number as its 32-bit little-endian integer.
    package static func attribute(_ v: Any, key: AttributeKey, itemClass: ItemClass) -> AttributeValue? {
        switch key.schemaKind {
        case .blob:
            if let s = string(v) { return .string(s) }
            if let d = data(v) { return .data(d) }
            if let i = int(v) { return .int(i) }
            return nil
        case .number:
            if isBoolean(v), let b = bool(v) { return key.comparable(.bool(b), for: itemClass) }
            if let i = int(v) { return key.comparable(.int(i), for: itemClass) }
            if let s = string(v) { return key.comparable(.string(s), for: itemClass) }
            return nil
        case .string:
            if let s = string(v) { return .string(s) }
            if let d = data(v), let s = String(validatingUTF8Bytes: d) { return .string(s) }
            return nil
        case .data:
            if let d = data(v) { return .data(d) }
            if let s = string(v) { return .data(Data(s.utf8)) }
            if let i = int(v) { return .data(AttributeKey.int32Bytes(i)) }
            return nil
        }
    }
}
