import Foundation
import LatchkeyCrypto

/// The name a client gives its device when it signs in (`device_name`), shown in `GET /v1/sessions`: the rules of a
/// passkey's name (`PasskeyName`: trimmed, NFC, 1–64 characters and at most 256 UTF-8 bytes, no control, separator,
/// private-use, unassigned or format characters but ZWNJ/ZWJ). Without one, the User-Agent is shown, cut to the same
/// bytes with those characters left out.
public enum DeviceName {
    public static let maximumCharacters = PasskeyName.maximumCharacters
    public static let maximumBytes = PasskeyName.maximumBytes

    /// The name to store, or why it is not acceptable.
    public static func validated(_ name: String) throws(DeviceNameError) -> String {
        do { return try PasskeyName.validated(name) } catch {
            switch error {
            case .empty: throw .empty
            case .tooLong(let characters): throw .tooLong(maximumCharacters: characters)
            case .forbiddenCharacter(let value): throw .forbiddenCharacter(value)
            }
        }
    }

    /// A User-Agent as stored: forbidden characters left out, at most `maximumBytes`; nil when nothing is left.
    static func userAgent(_ header: String?) -> String? {
        guard let header else { return nil }
        let cleaned = String(String.UnicodeScalarView(header.unicodeScalars.filter { !PasskeyName.isForbidden($0) }))
        var cut = cleaned.trimmingCharacters(in: .whitespaces)
        while cut.utf8.count > maximumBytes { cut.removeLast() }
        return cut.isEmpty ? nil : cut
    }
}

/// Why a device name was refused (400 `invalid_request`).
public enum DeviceNameError: Error, Sendable, Equatable {
    case empty
    case tooLong(maximumCharacters: Int)
    /// The code point that is not allowed.
    case forbiddenCharacter(UInt32)

    /// The English text sent in `error_description`.
    var englishText: String {
        switch self {
        case .empty: "device_name is empty."
        case .tooLong(let n): "device_name is longer than \(n) characters."
        case .forbiddenCharacter(let v):
            "device_name contains a character that is not allowed (U+\(PasskeyNameError.hex(v)))."
        }
    }
}

extension DeviceNameError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .empty: MessageLanguage.current.pick(english: englishText, korean: "기기 이름(device_name)이 비어 있습니다.")
        case .tooLong(let n):
            MessageLanguage.current.pick(english: englishText, korean: "기기 이름(device_name)이 \(n)자보다 깁니다.")
        case .forbiddenCharacter(let v):
            MessageLanguage.current.pick(english: englishText,
                                         korean: "기기 이름(device_name)에 허용되지 않는 문자가 있습니다 (U+\(PasskeyNameError.hex(v))).")
        }
    }
}
