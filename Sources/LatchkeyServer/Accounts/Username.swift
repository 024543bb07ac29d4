import Foundation

/// User names: what is accepted, and the case-folded key that makes them unique.
public enum Username {
    /// The longest accepted name, in UTF-8 bytes.
    public static let maximumBytes = 256

    /// The unique key of a name: Unicode compatibility-normalized (NFKC) and case-folded, so "Alice",
    /// "ALICE" and "ａｌｉｃｅ" are the same account.
    public static func key(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .precomposedStringWithCompatibilityMapping
    }

    /// True when the name is acceptable: 1...256 bytes after trimming, no control characters,
    /// no leading or trailing white space.
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumBytes else { return false }
        guard name.trimmingCharacters(in: .whitespacesAndNewlines) == name else { return false }
        return !name.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
    }
}
