import Foundation
import Testing

/// The `latchkey` command-line tool for tests that start `latchkey serve` or `latchkey apple-stand-in`.
///
/// `LATCHKEY_CLI_BINARY` names it where this build has none: the apple-frameworks mode builds no server or CLI, so
/// `make apple-frameworks` passes the default build's (`make test` builds that first); a named binary that is missing
/// fails the tests. Otherwise it is the one built next to this test binary, and without one the tests are skipped
/// (failed under LATCHKEY_REQUIRE_SERVICES=1).
enum LatchkeyBinary {
    static var path: String? {
        if let named = ProcessInfo.processInfo.environment["LATCHKEY_CLI_BINARY"], !named.isEmpty { return named }
        let beside = URL(fileURLWithPath: ChildProcess.testBinary).deletingLastPathComponent().appendingPathComponent("latchkey")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside.path : nil
    }

    /// Whether tests needing it run: when it exists, or when services are required (then a missing binary fails).
    static var testsRun: Bool {
        path != nil || ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1"
    }

    /// Why such tests are skipped.
    static let skipReason: Comment = """
        needs the latchkey binary: build the default mode (swift build), or set LATCHKEY_CLI_BINARY to it \
        (make apple-frameworks does)
        """

    /// The binary, or an error naming what is missing.
    static func required() throws -> String {
        guard let path, FileManager.default.isExecutableFile(atPath: path) else { throw MissingBinary(path: path) }
        return path
    }

    struct MissingBinary: Error, CustomStringConvertible {
        let path: String?
        var description: String {
            "the latchkey binary was not found (\(path ?? "LATCHKEY_CLI_BINARY is unset and none is next to the test binary"))"
        }
    }
}
