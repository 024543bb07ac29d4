import Foundation
import LatchkeyCrypto

/// Failures of the storage layer. Messages carry the engine's primary message only (never the
/// statement's parameters, which may be hashes or keys).
public enum DatabaseError: Error, Sendable, Equatable {
    /// The database could not be opened or connected to.
    case connectionFailed(String)
    /// A statement failed.
    case statementFailed(String)
    /// A UNIQUE or PRIMARY KEY constraint rejected the row.
    case uniqueViolation
    /// The database is busy beyond the configured timeout.
    case busy
    /// A column held a value of an unexpected type, or was missing.
    case unexpectedValue(column: Int)
    /// A schema migration failed.
    case migrationFailed(version: Int, reason: String)
    /// The stored schema is newer than this program knows.
    case schemaTooNew(stored: Int, known: Int)
    /// No pooled connection became free within the pool's timeout (the database is overloaded or down).
    case poolExhausted(waitedMilliseconds: Int)

    /// True for failures that go away by themselves (the engine restarting, overload): answered with 503
    /// and `Retry-After`, not 500.
    public var isTransient: Bool {
        switch self {
        case .connectionFailed, .busy, .poolExhausted: true
        default: false
        }
    }
}

extension DatabaseError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .connectionFailed(let why):
            return lang.pick(english: "Could not open the database: \(why)", korean: "데이터베이스를 열 수 없습니다: \(why)")
        case .statementFailed(let why):
            return lang.pick(english: "A database statement failed: \(why)", korean: "데이터베이스 명령이 실패했습니다: \(why)")
        case .uniqueViolation:
            return lang.pick(english: "The record already exists.", korean: "레코드가 이미 존재합니다.")
        case .busy:
            return lang.pick(english: "The database is busy; try again.", korean: "데이터베이스가 사용 중입니다. 다시 시도하세요.")
        case .unexpectedValue(let column):
            return lang.pick(english: "Unexpected value in column \(column).", korean: "열 \(column)의 값이 예상과 다릅니다.")
        case .migrationFailed(let version, let reason):
            return lang.pick(english: "Schema migration \(version) failed: \(reason)",
                             korean: "스키마 마이그레이션 \(version) 실패: \(reason)")
        case .poolExhausted(let waited):
            return lang.pick(english: "No database connection became free within \(waited) ms; try again.",
                             korean: "\(waited)ms 안에 사용 가능한 데이터베이스 연결이 없습니다. 다시 시도하세요.")
        case .schemaTooNew(let stored, let known):
            return lang.pick(english: "The database schema (version \(stored)) is newer than this server knows (\(known)).",
                             korean: "데이터베이스 스키마(버전 \(stored))가 이 서버가 아는 버전(\(known))보다 새롭습니다.")
        }
    }
}
