import Foundation

/// The identifier a Linux program's keychain items are grouped by: Apple's application identifier, which is the
/// access group (`kSecAttrAccessGroup`) of items added without one. An Apple app has it from its signature, and its
/// bundle identifier (`Bundle.main.bundleIdentifier`) from its `Info.plist`; a Linux program gives it, first found:
/// 1. `LATCHKEY_APPLICATION_IDENTIFIER`, spelt as Apple's ("TEAMID.com.example.app");
/// 2. the `CFBundleIdentifier` of an `Info.plist` beside the executable — the file Foundation reads for
///    `Bundle.main.bundleIdentifier`, so code that defaults its service to the bundle identifier gets it too (a
///    symbolic link to the executable counts from the file it points to);
/// 3. the process name.
///
/// `latchkey keychain status` prints the identifier in force and where it came from.
public struct ApplicationIdentity: Sendable, Hashable, CustomStringConvertible {
    /// Where the identifier came from.
    public enum Source: Sendable, Hashable {
        /// `LATCHKEY_APPLICATION_IDENTIFIER`.
        case environment
        /// The `CFBundleIdentifier` of the `Info.plist` at this path.
        case infoPlist(path: String)
        /// Neither: the process name.
        case processName
    }

    /// The environment variable that names the identifier.
    public static let environmentVariable = "LATCHKEY_APPLICATION_IDENTIFIER"

    /// The identifier in force (the default access group).
    public let identifier: String
    /// Where it came from.
    public let source: Source
    /// `Bundle.main.bundleIdentifier` (nil without an `Info.plist` beside the executable).
    public let bundleIdentifier: String?

    /// The identity of this process: `environment` first, then `bundle`'s `Info.plist`, then the process name.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment,
                               bundle: Bundle = .main) -> ApplicationIdentity {
        let bundleIdentifier = bundle.bundleIdentifier.flatMap { $0.isEmpty ? nil : $0 }
        if let named = environment[environmentVariable], !named.isEmpty {
            return ApplicationIdentity(identifier: named, source: .environment, bundleIdentifier: bundleIdentifier)
        }
        if let bundleIdentifier {
            return ApplicationIdentity(identifier: bundleIdentifier,
                                       source: .infoPlist(path: bundle.bundleURL.appendingPathComponent("Info.plist").path),
                                       bundleIdentifier: bundleIdentifier)
        }
        return ApplicationIdentity(identifier: ProcessInfo.processInfo.processName, source: .processName, bundleIdentifier: nil)
    }

    /// Where the identifier came from, in words (English, like the rest of `status`).
    public var origin: String {
        switch source {
        case .environment: "\(Self.environmentVariable)"
        case let .infoPlist(path): "CFBundleIdentifier of \(path)"
        case .processName: "the process name (no \(Self.environmentVariable), no Info.plist beside the executable)"
        }
    }

    /// `identifier (from origin)`.
    public var description: String { "\(identifier) (from \(origin))" }
}
