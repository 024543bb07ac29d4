import Foundation
import Latchkey
import LatchkeyCrypto

/// Where the app's `latchkey serve` is: a URL typed in the app's settings, kept in `UserDefaults` (it is no secret;
/// the app declares `NSPrivacyAccessedAPICategoryUserDefaults`, reason CA92.1, in its privacy manifest).
///
/// HTTPS anywhere; plain HTTP only to this device or the local network (`localhost`, loopback and private addresses,
/// `*.local`), for a development server — App Transport Security allows no more, with `NSAllowsLocalNetworking`.
/// Passkeys need more than a URL: the server's relying party ID must be a domain in the app's `webcredentials:`
/// associated domains, served over HTTPS (see the example's README).
public struct ServerSettings {
    /// The `UserDefaults` key.
    public static let key = "serverURL"

    let defaults: UserDefaults
    let fallback: URL

    /// Settings in `defaults`; `fallback` until the user saves one.
    public init(defaults: UserDefaults = .standard, fallback: URL) {
        self.defaults = defaults
        self.fallback = fallback
    }

    /// The server's URL: the saved one, else the fallback.
    public var url: URL {
        defaults.string(forKey: Self.key).flatMap { try? Self.validated($0) } ?? fallback
    }

    /// Checks and keeps `text`; returns the URL.
    @discardableResult
    public func save(_ text: String) throws(ServerSettingsError) -> URL {
        let url = try Self.validated(text)
        defaults.set(url.absoluteString, forKey: Self.key)
        return url
    }

    /// Forgets the saved URL (back to the fallback).
    public func reset() { defaults.removeObject(forKey: Self.key) }

    /// `text` as a server URL, or why it cannot be one.
    public static func validated(_ text: String) throws(ServerSettingsError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty, let url = components.url else {
            throw .notAURL(trimmed)
        }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        guard components.user == nil, components.password == nil else { throw .credentialsInURL }
        guard components.query == nil, components.fragment == nil else { throw .notAURL(trimmed) }
        if scheme == "http", !isLocal(host.lowercased()) { throw .insecure(host) }
        return url
    }

    /// This device or the local network: where plain HTTP is acceptable for a development server.
    static func isLocal(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".local") || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { UInt8($0) }
        guard parts.count == 4, octets.count == 4 else { return false }
        let (a, b) = (octets[0], octets[1])
        return a == 127 || a == 10 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
    }
}

/// Why a server address was not taken.
public enum ServerSettingsError: Error, Sendable, Hashable {
    case empty
    case notAURL(String)
    case unsupportedScheme(String)
    /// A user name or password in the URL (it would be stored in the clear and sent with every request).
    case credentialsInURL
    /// Plain HTTP to a host on the internet.
    case insecure(String)

    /// The text in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .empty:
            language.pick(english: "Enter the server's address.", korean: "서버 주소를 입력하세요.")
        case .notAURL(let text):
            language.pick(english: "“\(text)” is not a server address such as https://notes.example.com.",
                          korean: "“\(text)”은(는) https://notes.example.com 같은 서버 주소가 아닙니다.")
        case .unsupportedScheme(let scheme):
            language.pick(english: "The address must start with https:// (not \(scheme)://).",
                          korean: "주소는 https://로 시작해야 합니다 (\(scheme)://가 아님).")
        case .credentialsInURL:
            language.pick(english: "Leave the user name and password out of the address.",
                          korean: "주소에 사용자 이름과 비밀번호를 넣지 마세요.")
        case .insecure(let host):
            language.pick(english: "Use https:// for \(host): plain http:// is only for this device or the local network.",
                          korean: "\(host)에는 https://를 사용하세요. http://는 이 기기나 로컬 네트워크에서만 쓸 수 있습니다.")
        }
    }
}

extension ServerSettingsError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }
}
