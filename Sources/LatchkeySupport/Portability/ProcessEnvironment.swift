import Foundation

/// The process environment for the C process APIs (glibc's `environ` is not declared by Darwin's headers).
package enum ProcessEnvironment {
    /// Runs `body` with the current environment as a nil-terminated `envp` array of "NAME=value" C strings
    /// (for `posix_spawn`), freed afterwards.
    package static func withCStrings<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> R) rethrows -> R {
        var entries = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { entries.forEach { free($0) } }
        return try entries.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}
