import Foundation
import LatchkeyCrypto

/// The rules for a passkey's name (the label its owner gives it: "Work laptop", "엄마 폰", "🔑 YubiKey").
///
/// A name is trimmed of surrounding white space and stored in Unicode NFC, so two spellings of one name are
/// one name. It has 1...`maximumCharacters` characters (grapheme clusters: an emoji with modifiers counts as
/// one) and at most `maximumBytes` UTF-8 bytes. Control characters, line and paragraph separators, private-use,
/// unassigned and surrogate code points, and format characters other than ZWNJ/ZWJ (which some scripts and
/// emoji need) are refused: bidirectional overrides would let a name display as another.
public enum PasskeyName {
    public static let maximumCharacters = 64
    public static let maximumBytes = 256

    /// The name to store, or why it is not acceptable.
    public static func validated(_ name: String) throws(PasskeyNameError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= maximumCharacters, trimmed.utf8.count <= maximumBytes else {
            throw .tooLong(maximumCharacters: maximumCharacters)
        }
        if let bad = trimmed.unicodeScalars.first(where: isForbidden) { throw .forbiddenCharacter(bad.value) }
        return trimmed
    }

    /// A name from elsewhere (metadata) cut to the rules, or "Passkey" when nothing acceptable is left.
    static func truncated(_ name: String) -> String {
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isForbidden($0) }))
        var cut = String(cleaned.trimmingCharacters(in: .whitespacesAndNewlines).prefix(maximumCharacters))
        while cut.utf8.count > maximumBytes { cut.removeLast() }
        return (try? validated(cut)) ?? "Passkey"
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
        case .format: scalar.value != 0x200C && scalar.value != 0x200D
        default: false
        }
    }
}

/// Why a passkey name was refused.
public enum PasskeyNameError: Error, Sendable, Equatable {
    case empty
    case tooLong(maximumCharacters: Int)
    /// The code point that is not allowed.
    case forbiddenCharacter(UInt32)

    /// The English text sent in `error_description`.
    var englishText: String {
        switch self {
        case .empty: "The passkey name is empty."
        case .tooLong(let n): "The passkey name is longer than \(n) characters."
        case .forbiddenCharacter(let v): "The passkey name contains a character that is not allowed (U+\(Self.hex(v)))."
        }
    }

    static func hex(_ v: UInt32) -> String { String(format: "%04X", v) }
}

extension PasskeyNameError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .empty: MessageLanguage.current.pick(english: englishText, korean: "패스키 이름이 비어 있습니다.")
        case .tooLong(let n):
            MessageLanguage.current.pick(english: englishText, korean: "패스키 이름이 \(n)자보다 깁니다.")
        case .forbiddenCharacter(let v):
            MessageLanguage.current.pick(english: englishText,
                                         korean: "패스키 이름에 허용되지 않는 문자가 있습니다 (U+\(Self.hex(v))).")
        }
    }
}
