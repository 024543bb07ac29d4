import Foundation
import Latchkey

/// Prints items the way macOS `security` does: a `keychain:` line, the class, then one line per attribute
/// (`"acct"<blob>="me"`). Never prints a secret.
enum KeychainPrinting {
    static func describe(_ attributes: ItemAttributes, keychain: String) -> String {
        var lines = ["keychain: \"\(keychain)\"", "class: \"\(attributes.itemClass.rawValue)\"", "attributes:"]
        var entries: [(String, String)] = []
        let keys = AttributeKey.applicable(to: attributes.itemClass)
        for key in keys {
            let tag: String = typeTag(key.kind(for: attributes.itemClass))
            let shown: String = attributes.values[key].map { render($0) } ?? "<NULL>"
            entries.append((key.rawValue, tag + "=" + shown))
        }
        let created: String = attributes.creationDate.map { timestamp($0) } ?? "<NULL>"
        let modified: String = attributes.modificationDate.map { timestamp($0) } ?? "<NULL>"
        let level: String = attributes.effectiveAccessibility.rawValue
        let synced: String = attributes.synchronizable ? "1" : "0"
        entries.append(("cdat", "<timedate>=" + created))
        entries.append(("mdat", "<timedate>=" + modified))
        entries.append(("pdmn", "<blob>=\"" + level + "\""))
        entries.append(("sync", "<sint32>=" + synced))
        if let accessControl = attributes.accessControl {
            let flags: String = String(accessControl.flags.rawValue, radix: 16)
            entries.append(("accc", "<uint32>=0x" + flags))
        }
        entries.sort { $0.0 < $1.0 }
        for entry in entries {
            lines.append("    \"" + entry.0 + "\"" + entry.1)
        }
        return lines.joined(separator: "\n")
    }

    /// A secret as `find-… -w` prints it: the text when it is UTF-8 without control characters, else hex.
    static func password(_ data: Data) -> String {
        if let text = String(data: data, encoding: .utf8),
           !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return text
        }
        return data.map { String(format: "%02x", $0) }.joined()
    }

    private static func typeTag(_ kind: AttributeValue.Kind) -> String {
        switch kind {
        case .string, .data: "<blob>"
        case .int: "<sint32>"
        case .bool: "<sint32>"
        }
    }

    private static func render(_ value: AttributeValue) -> String {
        switch value {
        case .string(let string):
            let escaped = string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        case .data(let data): return "0x" + data.map { String(format: "%02X", $0) }.joined()
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "1" : "0"
        }
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return "\"\(formatter.string(from: date))\""
    }
}
