import Foundation

/// Why a CBOR input was refused. Every malformed input ends here, never in a crash.
public enum CBORError: Error, Sendable, Equatable {
    /// The input ended inside an item.
    case truncated
    /// Bytes follow the single top-level item.
    case trailingBytes(count: Int)
    /// Nesting deeper than the decoder's limit.
    case tooDeep(limit: Int)
    /// The input, a string or a container is larger than the decoder's limit.
    case tooLarge(limit: Int)
    /// Indefinite-length items are not allowed in this (deterministic) profile.
    case indefiniteLength
    /// An integer, length or float was not written in its shortest form, or map keys are out of order.
    case nonCanonical(String)
    /// A map holds the same key twice.
    case duplicateMapKey
    /// A text string is not valid UTF-8.
    case invalidUTF8
    /// A reserved additional-information value (28–30) or an unassigned simple value.
    case malformed(String)
}

extension CBORError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .truncated:
            return lang.pick(english: "CBOR input is truncated.", korean: "CBOR 입력이 잘렸습니다.")
        case let .trailingBytes(count):
            return lang.pick(english: "CBOR input has \(count) trailing bytes.",
                             korean: "CBOR 입력 뒤에 \(count)바이트가 남아 있습니다.")
        case let .tooDeep(limit):
            return lang.pick(english: "CBOR nesting exceeds the limit of \(limit).",
                             korean: "CBOR 중첩 깊이가 한도 \(limit)를 넘었습니다.")
        case let .tooLarge(limit):
            return lang.pick(english: "CBOR item exceeds the size limit of \(limit).",
                             korean: "CBOR 항목이 크기 한도 \(limit)를 넘었습니다.")
        case .indefiniteLength:
            return lang.pick(english: "Indefinite-length CBOR items are not allowed.",
                             korean: "길이가 정해지지 않은 CBOR 항목은 허용되지 않습니다.")
        case let .nonCanonical(what):
            return lang.pick(english: "CBOR is not in canonical form: \(what).",
                             korean: "CBOR가 정규 형식이 아닙니다: \(what).")
        case .duplicateMapKey:
            return lang.pick(english: "A CBOR map has a duplicate key.", korean: "CBOR 맵에 중복된 키가 있습니다.")
        case .invalidUTF8:
            return lang.pick(english: "A CBOR text string is not valid UTF-8.",
                             korean: "CBOR 텍스트 문자열이 올바른 UTF-8이 아닙니다.")
        case let .malformed(what):
            return lang.pick(english: "Malformed CBOR: \(what).", korean: "CBOR 형식 오류: \(what).")
        }
    }
}
