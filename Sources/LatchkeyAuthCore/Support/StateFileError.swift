import Foundation
import LatchkeySupport

/// A state file (simulator control file, PAM secrets file) could not be used.
public enum StateFileError: Error, Sendable, Equatable {
    /// The directory or file could not be created or opened (errno).
    case cannotOpen(path: String, errno: Int32)
    /// The file lock could not be taken (errno).
    case cannotLock(path: String, errno: Int32)
    /// The file exists but is not valid state.
    case corrupt(path: String)
    /// Writing the new state failed (errno).
    case cannotWrite(path: String, errno: Int32)
}

extension StateFileError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case let .cannotOpen(path, code):
            return lang.pick(english: "Cannot open the state file \(path) (errno \(code)).",
                             korean: "상태 파일 \(path)을(를) 열 수 없습니다 (errno \(code)).")
        case let .cannotLock(path, code):
            return lang.pick(english: "Cannot lock the state file \(path) (errno \(code)).",
                             korean: "상태 파일 \(path)을(를) 잠글 수 없습니다 (errno \(code)).")
        case let .corrupt(path):
            return lang.pick(english: "The state file \(path) is damaged; delete it to start over.",
                             korean: "상태 파일 \(path)이(가) 손상되었습니다. 삭제 후 다시 시작하세요.")
        case let .cannotWrite(path, code):
            return lang.pick(english: "Cannot write the state file \(path) (errno \(code)).",
                             korean: "상태 파일 \(path)에 쓸 수 없습니다 (errno \(code)).")
        }
    }
}
