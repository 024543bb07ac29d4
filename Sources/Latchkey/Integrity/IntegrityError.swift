import Foundation
import LatchkeyCrypto

/// Why an integrity control call failed.
public enum IntegrityError: Error, Sendable, Hashable {
    /// `setrlimit(RLIMIT_CORE)` or `prctl(PR_SET_DUMPABLE)` failed with this errno.
    case coreDumpControlFailed(errno: Int32)
}

extension IntegrityError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .coreDumpControlFailed(let code):
            MessageLanguage.current.pick(
                english: "Could not turn off core dumps (errno \(code)).",
                korean: "코어 덤프를 끌 수 없습니다 (errno \(code)).")
        }
    }
}
