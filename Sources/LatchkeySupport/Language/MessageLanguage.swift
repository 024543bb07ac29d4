import Foundation

/// The languages Latchkey's messages come in. Every error type's `LocalizedError` text has both.
public enum MessageLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case korean = "ko"

    /// Korean when the preferred language (LATCHKEY_LANG, LC_ALL, LC_MESSAGES, LANG, then the locale) is Korean.
    public static var current: MessageLanguage {
        let env = ProcessInfo.processInfo.environment
        let tag = [env["LATCHKEY_LANG"], env["LC_ALL"], env["LC_MESSAGES"], env["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? Locale.preferredLanguages.first ?? "en"
        return tag.lowercased().hasPrefix("ko") ? .korean : .english
    }

    /// Picks the text for this language.
    public func pick(english: String, korean: String) -> String {
        self == .korean ? korean : english
    }
}
