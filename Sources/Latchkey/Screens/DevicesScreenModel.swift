import Foundation
import LatchkeyCrypto
import Observation

/// Everything a "Devices" screen shows and does, over `AccountManager`: the account's signed-in sessions (this device
/// first and marked), signing one out, signing out all the others, the progress and the errors in `language`.
/// Signing out this device's own session ends the app's session (`onSignedOut`). LatchkeyUI's `DevicesScreen` only
/// lays it out.
///
/// ```swift
/// let devices = DevicesScreenModel(account: accountManager) { showSignIn() }
/// await devices.load()
/// ```
@MainActor
@Observable
public final class DevicesScreenModel {
    /// The sessions, this device's first, then by last use (after `load()`).
    public private(set) var sessions: [AccountSession] = []
    /// True while the list loads.
    public private(set) var isLoading = false
    /// The session being signed out, while it is.
    public private(set) var endingSessionID: AccountSession.ID?
    /// True while the other devices are being signed out.
    public private(set) var isEndingOtherSessions = false
    /// The last action's failure, if any.
    public private(set) var failure: AccountManagerError?
    /// What the last action did ("Signed out 2 other devices."), if anything.
    public private(set) var notice: String?
    /// The language of every text.
    public let language: MessageLanguage

    @ObservationIgnored private let account: AccountManager
    @ObservationIgnored private let timeZone: TimeZone
    @ObservationIgnored private let onSignedOut: @MainActor () async -> Void

    /// A devices screen over `account`; `onSignedOut` runs when this device's own session was signed out here (or the
    /// server no longer knows it).
    public init(account: AccountManager, language: MessageLanguage = .current, timeZone: TimeZone = .current,
                onSignedOut: @escaping @MainActor () async -> Void = {}) {
        self.account = account
        self.language = language
        self.timeZone = timeZone
        self.onSignedOut = onSignedOut
    }

    // MARK: - What the screen shows

    /// "Devices".
    public var title: String { language.pick(english: "Devices", korean: "기기") }

    /// The line under the title.
    public var message: String {
        language.pick(english: "You're signed in on these devices. Sign out any you don't recognize.",
                      korean: "다음 기기에서 로그인되어 있습니다. 알 수 없는 기기는 로그아웃하세요.")
    }

    /// A session's name: the device name it gave, else "Unknown Device".
    public func name(of session: AccountSession) -> String {
        guard let name = session.deviceName, !name.isEmpty else {
            return language.pick(english: "Unknown Device", korean: "알 수 없는 기기")
        }
        return name
    }

    /// "This Device" for the app's own session, else `nil`.
    public func badge(of session: AccountSession) -> String? {
        session.isCurrent ? language.pick(english: "This Device", korean: "이 기기") : nil
    }

    /// How it signed in and when it was last active (its address when known): "Passkey · Last active Jun 5, 2025 at
    /// 9:41 AM · 192.0.2.1".
    public func details(of session: AccountSession) -> String {
        var parts: [String] = []
        if let method = session.method { parts.append(method.title(in: language)) }
        let when = (session.lastUsedAt ?? session.createdAt).formatted(dateStyle)
        parts.append(language.pick(english: "Last active \(when)", korean: "최근 활동 \(when)"))
        if let address = session.clientAddress, !address.isEmpty { parts.append(address) }
        return parts.joined(separator: " · ")
    }

    /// The date style of `details(of:)`: abbreviated date, short time, in the screen's language and time zone.
    public var dateStyle: Date.FormatStyle {
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened)
        style.locale = Locale(identifier: language == .korean ? "ko_KR" : "en_US")
        style.timeZone = timeZone
        return style
    }

    /// The title of a session's button: "Sign Out" ("Sign Out of This Device" for the app's own).
    public func endTitle(for session: AccountSession) -> String {
        session.isCurrent ? language.pick(english: "Sign Out of This Device", korean: "이 기기에서 로그아웃")
                          : language.pick(english: "Sign Out", korean: "로그아웃")
    }

    /// "Sign Out of All Other Devices".
    public var endOthersTitle: String {
        language.pick(english: "Sign Out of All Other Devices", korean: "다른 모든 기기에서 로그아웃")
    }

    /// Whether "Sign Out of All Other Devices" shows: another session exists.
    public var showsEndOthers: Bool { sessions.contains { !$0.isCurrent } }

    /// Whether buttons can be pressed (nothing running).
    public var isIdle: Bool { !isLoading && endingSessionID == nil && !isEndingOtherSessions }

    /// The failure's text, while there is one.
    public var errorMessage: String? { failure.map { $0.message(in: language) } }

    // MARK: - Actions

    /// Loads (or reloads) the list.
    public func load() async {
        guard !isLoading else { return }
        isLoading = true
        defer { isLoading = false }
        do {
            sessions = try await account.sessions()
            failure = nil
        } catch {
            await fail(error)
        }
    }

    /// Signs `session`'s device out, then reloads the list (this device's: the app is signed out).
    public func end(_ session: AccountSession) async {
        guard isIdle else { return }
        endingSessionID = session.id
        notice = nil
        defer { endingSessionID = nil }
        do {
            try await account.endSession(session)
            if session.isCurrent {
                sessions = []
                await onSignedOut()
                return
            }
            sessions.removeAll { $0.id == session.id }
            notice = language.pick(english: "Signed out \(name(of: session)).", korean: "\(name(of: session))에서 로그아웃했습니다.")
            failure = nil
        } catch .sessionNotFound {
            sessions.removeAll { $0.id == session.id }   // already gone: the list was stale
        } catch {
            await fail(error)
        }
    }

    /// Signs every other device out.
    public func endAllOthers() async {
        guard isIdle else { return }
        isEndingOtherSessions = true
        notice = nil
        defer { isEndingOtherSessions = false }
        do {
            let ended = try await account.endOtherSessions()
            sessions.removeAll { !$0.isCurrent }
            notice = ended == 1
                ? language.pick(english: "Signed out 1 other device.", korean: "다른 기기 1대에서 로그아웃했습니다.")
                : language.pick(english: "Signed out \(ended) other devices.", korean: "다른 기기 \(ended)대에서 로그아웃했습니다.")
            failure = nil
        } catch {
            await fail(error)
        }
    }

    /// Hides the error.
    public func dismissError() { failure = nil }

    private func fail(_ error: AccountManagerError) async {
        switch error {
        case .canceled:
            return
        case .notSignedIn:
            sessions = []
            await onSignedOut()
        default:
            break
        }
        failure = error
    }
}
