import Foundation
import LatchkeyCrypto

/// A fuzz target's property did not hold for an input (the parser accepted it, but, for example, its
/// canonical encoding does not decode to the same value).
public struct FuzzPropertyViolation: Error, Sendable, CustomStringConvertible {
    /// The target whose property broke.
    public let target: FuzzTarget
    /// What did not hold (never input bytes that could be secrets: the inputs are the fuzzer's own).
    public let property: String

    init(_ target: FuzzTarget, _ property: String) {
        self.target = target
        self.property = property
    }

    public var description: String { "\(target.name): \(property)" }
}

extension FuzzPropertyViolation: LocalizedError {
    public var errorDescription: String? {
        MessageLanguage.current.pick(english: "Fuzz target \(target.name): property violated: \(property).",
                                     korean: "퍼즈 대상 \(target.name): 속성이 깨졌습니다: \(property).")
    }
}

/// Throws when `condition` is false.
func require(_ condition: Bool, _ target: FuzzTarget, _ property: @autoclosure () -> String) throws(FuzzPropertyViolation) {
    if !condition { throw FuzzPropertyViolation(target, property()) }
}
