#if os(Linux)
import Foundation
import LatchkeyKeychainLinux
import LatchkeySupport

/// Linux-only settings of `DeviceCheck` (no Apple counterpart): the App ID attestations and assertions are made for,
/// where the App Attest keys are kept, and where the development attestation authority lives. Each setting left nil
/// comes from the environment, as described on its property.
///
/// `task` (for the current task and the tasks it starts) comes before `process`. `DCAppAttestService` reads the
/// configuration when a method is called, so a call made under `$task.withValue(…)` keeps it until it completes. The
/// TPM is `SecureEnclave`'s (`LatchkeySecureEnclaveConfiguration`).
public struct LatchkeyDeviceCheckConfiguration: Sendable, Hashable {
    /// The App ID, `TEAMID.bundle.id` — the RP ID whose SHA-256 starts every authenticator data. Nil: the application
    /// identifier (`LATCHKEY_APPLICATION_IDENTIFIER`, else the `CFBundleIdentifier` of an `Info.plist` beside the
    /// executable, else the process name) when it starts with a team ID, else `LATCHKEY_TEAM_ID` + "." + it.
    public var appID: String?
    /// Where App Attest keys are kept (a directory per App ID, a 0600 file per key). Nil: `LATCHKEY_APP_ATTEST_DIRECTORY`,
    /// else `$XDG_DATA_HOME/latchkey/app-attest`.
    public var keyDirectory: URL?
    /// The development attestation authority's directory. Nil: `LATCHKEY_APP_ATTEST_AUTHORITY`, else
    /// `$XDG_DATA_HOME/latchkey/app-attest-authority`.
    public var authorityDirectory: URL?

    public init(appID: String? = nil, keyDirectory: URL? = nil, authorityDirectory: URL? = nil) {
        self.appID = appID
        self.keyDirectory = keyDirectory
        self.authorityDirectory = authorityDirectory
    }

    private static let processValue = Locked(LatchkeyDeviceCheckConfiguration())

    /// The configuration of this process.
    public static var process: LatchkeyDeviceCheckConfiguration {
        get { processValue.withLock { $0 } }
        set { processValue.withLock { $0 = newValue } }
    }

    /// The configuration for the current task and its child tasks, above `process` (tests use one each).
    @TaskLocal public static var task: LatchkeyDeviceCheckConfiguration?

    /// The configuration in force for the calling task.
    public static var current: LatchkeyDeviceCheckConfiguration { task ?? process }

    // MARK: - Resolution

    package static let teamIDVariable = "LATCHKEY_TEAM_ID"
    package static let keyDirectoryVariable = "LATCHKEY_APP_ATTEST_DIRECTORY"
    package static let authorityVariable = "LATCHKEY_APP_ATTEST_AUTHORITY"

    /// The App ID in force, or why there is none.
    package func resolvedAppID(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, DCError> {
        if let appID {
            return Self.isAppID(appID) ? .success(appID)
                : .failure(DCError(.featureUnsupported, reason: Self.text(badAppID: appID)))
        }
        let identity = ApplicationIdentity.current(environment: environment)
        if Self.isAppID(identity.identifier) { return .success(identity.identifier) }
        if let team = environment[Self.teamIDVariable], !team.isEmpty {
            let joined = "\(team).\(identity.identifier)"
            return Self.isAppID(joined) ? .success(joined) : .failure(DCError(.featureUnsupported, reason: Self.text(badAppID: joined)))
        }
        let language = MessageLanguage.current
        return .failure(DCError(.featureUnsupported, reason: language.pick(
            english: "App Attest needs an App ID (TEAMID.bundle.id): the application identifier \(identity) has no team "
                + "ID; set \(ApplicationIdentity.environmentVariable)=TEAMID.bundle.id or \(Self.teamIDVariable).",
            korean: "App Attest에는 App ID(TEAMID.bundle.id)가 필요합니다: 애플리케이션 식별자 \(identity)에 팀 ID가 없습니다. "
                + "\(ApplicationIdentity.environmentVariable)=TEAMID.bundle.id 또는 \(Self.teamIDVariable)를 설정하세요.")))
    }

    /// Where keys are kept.
    package func resolvedKeyDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let keyDirectory { return keyDirectory }
        if let path = environment[Self.keyDirectoryVariable], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
        return Self.dataDirectory(environment).appendingPathComponent("app-attest", isDirectory: true)
    }

    /// Where the development authority lives.
    package func resolvedAuthorityDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let authorityDirectory { return authorityDirectory }
        if let path = environment[Self.authorityVariable], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
        return Self.dataDirectory(environment).appendingPathComponent("app-attest-authority", isDirectory: true)
    }

    /// `TEAMID.bundle.id`: a team ID of ten upper-case letters or digits, a period, a bundle ID of letters, digits,
    /// hyphens and periods with no empty part.
    package static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].count == 10,
              parts[0].allSatisfy({ ($0.isASCII && $0.isUppercase) || ($0.isASCII && $0.isNumber) }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    private static func dataDirectory(_ environment: [String: String]) -> URL {
        VaultFile.defaultURL(environment: environment).deletingLastPathComponent()
    }

    private static func text(badAppID: String) -> String {
        MessageLanguage.current.pick(english: "\"\(badAppID)\" is not an App ID (TEAMID.bundle.id).",
                                     korean: "\"\(badAppID)\"는 App ID(TEAMID.bundle.id)가 아닙니다.")
    }
}
#endif
