#if os(Linux)
import Foundation
import LatchkeySupport
import LocalAuthentication

/// Linux-only settings of the `AuthenticationServices` facade (no Apple counterpart).
///
/// - `appleIDAuthority`: what answers Sign in with Apple. By default, when `LATCHKEY_APPLE_ID_AUTHORITY` names a
///   `latchkey apple-stand-in` URL, a `LatchkeyLoopbackAppleIDAuthority` for the client id `LATCHKEY_APPLE_CLIENT_ID`
///   (else `LATCHKEY_APPLICATION_IDENTIFIER`, the stand-in for the bundle identifier) and the Apple ID
///   `LATCHKEY_APPLE_ID`; otherwise none, and Apple ID requests fail as on a device signed in to no Apple ID.
/// - `securityKey`: the security key "plugged in" (none by default).
/// - `makeUserVerificationContext`: the `LAContext` that verifies the user before a passkey is made or used, a saved
///   password is handed over and before Sign in with Apple (by default `LAContext()`, i.e.
///   `LatchkeyLocalAuthenticationConfiguration`'s backend).
/// - `associatedDomains`: the app's Associated Domains entitlement, as its entries read (`webcredentials:example.com`):
///   password requests offer the saved passwords of its `webcredentials:` domains. By default `LATCHKEY_ASSOCIATED_DOMAINS`
///   (entries separated by spaces or commas), else none.
/// Platform passkeys and saved passwords live in the `Security` module's keychain (`LatchkeySecurityConfiguration.store`).
public enum LatchkeyAuthenticationServicesConfiguration {
    struct Settings {
        var appleIDAuthority: (any LatchkeyAppleIDAuthority)?
        var authoritySet = false
        var securityKey: LatchkeyVirtualSecurityKey?
        var makeContext: (@Sendable () -> LAContext)?
        var associatedDomains: [String]?
    }

    private static let settings = Locked(Settings())

    /// The stand-in for the device's Apple ID and appleid.apple.com.
    public static var appleIDAuthority: (any LatchkeyAppleIDAuthority)? {
        get {
            let (isSet, authority) = settings.withLock { ($0.authoritySet, $0.appleIDAuthority) }
            return isSet ? authority : environmentAuthority()
        }
        set { settings.withLock { $0.appleIDAuthority = newValue; $0.authoritySet = true } }
    }

    /// The security key attached to this machine, if any.
    public static var securityKey: LatchkeyVirtualSecurityKey? {
        get { settings.withLock { $0.securityKey } }
        set { settings.withLock { $0.securityKey = newValue } }
    }

    /// Makes the context that verifies the user.
    public static var makeUserVerificationContext: @Sendable () -> LAContext {
        get {
            let made: (@Sendable () -> LAContext)? = settings.withLock { $0.makeContext }
            return made ?? { LAContext() }
        }
        set { settings.withLock { $0.makeContext = newValue } }
    }

    /// The app's associated domains (`webcredentials:example.com`, `applinks:…`).
    public static var associatedDomains: [String] {
        get {
            settings.withLock { $0.associatedDomains } ?? ProcessInfo.processInfo.environment["LATCHKEY_ASSOCIATED_DOMAINS"]
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) } ?? []
        }
        set { settings.withLock { $0.associatedDomains = newValue } }
    }

    /// The domains of the `webcredentials:` entries of `associatedDomains`, in order.
    static var webCredentialsDomains: [String] {
        associatedDomains.compactMap { entry in
            guard entry.hasPrefix("webcredentials:") else { return nil }
            let domain = entry.dropFirst("webcredentials:".count).split(separator: "?").first.map(String.init) ?? ""
            return domain.isEmpty ? nil : domain
        }
    }

    /// Restores the defaults (environment-chosen authority and associated domains, no security key, `LAContext()`).
    public static func reset() {
        settings.withLock { $0 = Settings() }
    }

    static func environmentAuthority(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (any LatchkeyAppleIDAuthority)? {
        guard let text = environment["LATCHKEY_APPLE_ID_AUTHORITY"], let url = URL(string: text),
              url.scheme == "http" || url.scheme == "https" else { return nil }
        let clientID = environment["LATCHKEY_APPLE_CLIENT_ID"] ?? environment["LATCHKEY_APPLICATION_IDENTIFIER"]
            ?? ProcessInfo.processInfo.processName
        return LatchkeyLoopbackAppleIDAuthority(baseURL: url, clientID: clientID,
                                                appleID: environment["LATCHKEY_APPLE_ID"] ?? "appleseed@example.com")
    }

    static var noAppleIDReason: String {
        MessageLanguage.current.pick(
            english: "No Apple ID is signed in (Linux: set LatchkeyAuthenticationServicesConfiguration.appleIDAuthority "
                + "or LATCHKEY_APPLE_ID_AUTHORITY).",
            korean: "로그인된 Apple ID가 없습니다 (Linux: LatchkeyAuthenticationServicesConfiguration.appleIDAuthority "
                + "또는 LATCHKEY_APPLE_ID_AUTHORITY를 설정하세요).")
    }
}
#endif
