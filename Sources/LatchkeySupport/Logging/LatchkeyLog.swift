import Foundation


/// The one logging hook of every Latchkey library module (libraries never `print`).
///
/// Messages are silent by default. Route them into your own logging (os.Logger, swift-log, a file) with
/// ``setHandler(_:)``; or set `LATCHKEY_LOG=debug|info|notice|warning|error` to have them written to
/// standard error from that level up. Messages name stores, paths and choices — never secrets, service
/// or account names.
///
/// ```swift
/// LatchkeyLog.setHandler { entry in myLogger.log("\(entry.category): \(entry.message)") }
/// ```
public enum LatchkeyLog {
    /// How important a message is.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, notice, warning, error

        /// The name used by `LATCHKEY_LOG` and in standard-error output.
        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One message.
    public struct Entry: Sendable, Hashable {
        /// Its importance.
        public let level: Level
        /// The part of Latchkey it comes from, e.g. `keychain`.
        public let category: String
        /// The text (English; never a secret).
        public let message: String
    }

    /// Receives every message.
    public typealias Handler = @Sendable (Entry) -> Void

    private static let handler = Locked<Handler?>(standardErrorHandler(environment: ProcessInfo.processInfo.environment))

    /// Replaces the handler (nil: drop every message).
    public static func setHandler(_ newHandler: Handler?) {
        handler.withLock { $0 = newHandler }
    }

    /// Sends a message to the handler; `message` is only built when a handler is set.
    public static func log(_ level: Level, category: String, _ message: @autoclosure () -> String) {
        guard let current = handler.withLock({ $0 }) else { return }
        current(Entry(level: level, category: category, message: message()))
    }

    /// The handler `LATCHKEY_LOG` asks for: standard error from the named level up (`1` means info);
    /// nil when the variable is unset, empty or `0`.
    public static func standardErrorHandler(environment: [String: String]) -> Handler? {
        guard let setting = environment["LATCHKEY_LOG"]?.lowercased(), !setting.isEmpty, setting != "0" else { return nil }
        let threshold = Level.allCases.first { $0.name == setting } ?? .info
        return { entry in
            guard entry.level >= threshold else { return }
            FileHandle.standardError.write(Data("latchkey[\(entry.level.name)] \(entry.category): \(entry.message)\n".utf8))
        }
    }
}
