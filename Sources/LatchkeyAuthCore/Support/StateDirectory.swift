import Foundation

/// Where Latchkey keeps per-user authentication state: `$XDG_STATE_HOME/latchkey` or `~/.local/state/latchkey`.
public enum StateDirectory {
    /// The directory (not created here).
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("latchkey", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/latchkey", isDirectory: true)
    }
}
