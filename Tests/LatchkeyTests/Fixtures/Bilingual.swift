import LatchkeySupport

/// A text a screen must show, written out in English and Korean; `text(language)` picks one.
struct Bilingual: Sendable {
    var english: String
    var korean: String

    init(_ english: String, _ korean: String) {
        self.english = english
        self.korean = korean
    }

    func callAsFunction(_ language: MessageLanguage) -> String { language == .korean ? korean : english }
}
