import Foundation
import LatchkeyCrypto
import Observation

/// Everything a "Delete Account" screen shows and does, over `AccountManager.deleteAccount()`: what deleting means,
/// that the user may be asked to sign in again, the progress (confirming it's you, then deleting), the result, and the
/// errors in `language`. A cancelled re-authentication goes back to the confirmation without a word. LatchkeyUI's
/// `DeleteAccountScreen` only lays it out.
///
/// ```swift
/// let deletion = DeleteAccountScreenModel(account: accountManager) { showSignIn() }
/// await deletion.delete()   // the destructive button
/// ```
@MainActor
@Observable
public final class DeleteAccountScreenModel {
    /// Where the screen stands.
    public enum Phase: Sendable, Hashable {
        /// The consequences and the buttons.
        case confirming
        /// The server asked for a recent sign-in: the re-authentication is up.
        case reauthenticating
        /// The request runs.
        case deleting
        /// The account is deleted and this device's data of it removed.
        case deleted
        /// The deletion failed; `errorMessage` says why.
        case failed(AccountManagerError)
    }

    /// Where the screen stands.
    public private(set) var phase: Phase = .confirming
    /// The language of every text.
    public let language: MessageLanguage
    /// What the app itself deletes with the account (e.g. "Your notes on this device."), shown after the kit's lines.
    public let appConsequences: [String]

    /// Deletes the account; the model is handed over so a re-authentication can show itself.
    typealias Deletion = @MainActor (DeleteAccountScreenModel) async throws(AccountManagerError) -> Void

    @ObservationIgnored private let deletion: Deletion
    /// A deletion got as far as the server (`.deviceDataNotCleared`): trying again clears the device only.
    @ObservationIgnored private(set) var isDeletedOnServer = false
    @ObservationIgnored private let onDeleted: @MainActor () -> Void

    /// A screen deleting `account`'s account (`AccountManager.deleteAccount()`: the server's account, then this
    /// device's data of it).
    /// - Parameters:
    ///   - appConsequences: the app's own lines for `consequences`.
    ///   - onDeleted: runs once the account is deleted (show the sign-in screen).
    public convenience init(account: AccountManager, appConsequences: [String] = [], language: MessageLanguage = .current,
                            onDeleted: @escaping @MainActor () -> Void) {
        self.init(appConsequences: appConsequences, language: language, onDeleted: onDeleted) { model throws(AccountManagerError) in
            // The server's account is gone already; what failed was this device's part: only that again.
            if model.isDeletedOnServer { return try await account.clearDeviceData() }
            let original = account.reauthentication
            let shown = AccountReauthentication { [weak model] challenge in
                await model?.setPhase(.reauthenticating)
                let tokens = try await original(challenge)
                await model?.setPhase(.deleting)
                return tokens
            }
            try await account.reauthenticating(with: shown).deleteAccount()
        }
    }

    /// A screen whose deletion is the app's own `delete` (an account that lives only on this device, say); its
    /// `AccountManagerError`s are shown as `AccountManager`'s are.
    public convenience init(appConsequences: [String] = [], language: MessageLanguage = .current,
                            delete: @escaping @MainActor () async throws(AccountManagerError) -> Void,
                            onDeleted: @escaping @MainActor () -> Void) {
        self.init(appConsequences: appConsequences, language: language, onDeleted: onDeleted) { _ throws(AccountManagerError) in
            try await delete()
        }
    }

    init(appConsequences: [String], language: MessageLanguage, onDeleted: @escaping @MainActor () -> Void,
         deletion: @escaping Deletion) {
        self.appConsequences = appConsequences
        self.language = language
        self.onDeleted = onDeleted
        self.deletion = deletion
    }

    // MARK: - What the screen shows

    /// "Delete Account".
    public var title: String { language.pick(english: "Delete Account", korean: "계정 삭제") }

    /// The warning above the consequences.
    public var message: String {
        language.pick(english: "Deleting your account removes it and its data from the server. This can't be undone.",
                      korean: "계정을 삭제하면 계정과 데이터가 서버에서 삭제됩니다. 이 작업은 되돌릴 수 없습니다.")
    }

    /// What deleting does, one line each: the kit's, then `appConsequences`.
    public var consequences: [String] {
        [
            language.pick(english: "You are signed out on every device.", korean: "모든 기기에서 로그아웃됩니다."),
            language.pick(english: "Your password and passkeys stop working for this account.",
                          korean: "이 계정의 비밀번호와 패스키를 더 이상 사용할 수 없습니다."),
            language.pick(english: "If you used Sign in with Apple, the app stops using your Apple Account.",
                          korean: "Apple로 로그인을 사용했다면 앱이 더 이상 Apple 계정을 사용하지 않습니다."),
            language.pick(english: "This device forgets the account: its sign-in, app lock and saved data.",
                          korean: "이 기기에서 계정의 로그인 정보, 앱 잠금과 저장된 데이터가 삭제됩니다."),
        ] + appConsequences
    }

    /// The note on re-authentication.
    public var reauthenticationNotice: String {
        language.pick(english: "To confirm it's you, you may be asked to sign in again.",
                      korean: "본인 확인을 위해 다시 로그인하라는 요청을 받을 수 있습니다.")
    }

    /// The destructive button's title.
    public var deleteTitle: String { title }

    /// The cancel button's title.
    public var cancelTitle: String { language.pick(english: "Cancel", korean: "취소") }

    /// Whether the delete button can be pressed (not while a deletion runs, not after it).
    public var isDeleteEnabled: Bool {
        switch phase {
        case .confirming, .failed: true
        case .reauthenticating, .deleting, .deleted: false
        }
    }

    /// Whether the cancel button can be pressed (not while a deletion runs).
    public var isCancelEnabled: Bool { phase != .reauthenticating && phase != .deleting }

    /// The progress line while a deletion runs, else `nil`.
    public var progressMessage: String? {
        switch phase {
        case .reauthenticating: language.pick(english: "Confirm it's you…", korean: "본인 확인 중…")
        case .deleting: language.pick(english: "Deleting your account…", korean: "계정을 삭제하는 중…")
        case .confirming, .deleted, .failed: nil
        }
    }

    /// The result once deleted, else `nil`.
    public var resultMessage: String? {
        guard phase == .deleted else { return nil }
        return language.pick(english: "Your account has been deleted.", korean: "계정이 삭제되었습니다.")
    }

    /// The failure's text, while the screen shows one.
    public var errorMessage: String? {
        guard case .failed(let error) = phase else { return nil }
        return error.message(in: language)
    }

    // MARK: - Actions

    /// The destructive button: deletes the account (re-authenticating when the server asks), then removes this
    /// device's data of it and calls `onDeleted`.
    public func delete() async {
        guard isDeleteEnabled else { return }
        phase = .deleting
        do {
            try await deletion(self)
            phase = .deleted
            onDeleted()
        } catch {
            if case .deviceDataNotCleared = error { isDeletedOnServer = true }
            phase = error == .canceled ? .confirming : .failed(error)
        }
    }

    /// Hides the error (back to the confirmation).
    public func dismissError() {
        if case .failed = phase { phase = .confirming }
    }

    func setPhase(_ phase: Phase) {
        if self.phase == .deleting || self.phase == .reauthenticating { self.phase = phase }
    }
}
