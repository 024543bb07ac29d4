import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import LatchkeySupport
import Testing
@testable import Latchkey

/// The delete-account and devices screens' models against a real `latchkey serve`, in English and Korean.
@Suite("Account screens against latchkey serve", .enabled(if: LatchkeyBinary.testsRun, LatchkeyBinary.skipReason), .offCooperativePool)
@MainActor
struct AccountScreenModelTests {
    nonisolated static let password = AccountManagerTests.password

    /// A signed-in password account on `server`: its manager, re-authenticating with `reauthenticate`.
    static func signedIn(_ server: AccountServer, reauthentication: AccountReauthentication? = nil,
                         deviceName: String = "Phone") async throws
        -> (name: String, account: KitAccountManager) {
        let (name, _, tokens) = try await server.signedInAccount("mina", deviceName: deviceName)
        let account = KitAccountManager(baseURL: server.baseURL, tokens: tokens,
                                        reauthentication: reauthentication
                                            ?? AccountReauthentication { _ in throw CancellationError() })
        return (name, account)
    }

    // MARK: - Delete Account

    @Test(arguments: MessageLanguage.allCases)
    func deleteAccountExplainsReauthenticatesShowsProgressAndTheResult(_ language: MessageLanguage) async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let phases = Locked<[String]>([])
        let handle = ModelBox()
        let reauthentication = AccountReauthentication.password(PasswordSessionClient(baseURL: server.baseURL)) { _ in
            let model = await handle.model
            let shown = await model?.progressMessage
            phases.withLock { $0.append(shown ?? "-") }
            return Self.password
        }
        let (name, account) = try await Self.signedIn(server, reauthentication: reauthentication)
        var deleted = 0
        let model = DeleteAccountScreenModel(account: account, appConsequences: ["Notes"], language: language) {
            deleted += 1
        }
        handle.model = model

        #expect(model.title == Bilingual("Delete Account", "계정 삭제")(language))
        #expect(model.message == Bilingual(
            "Deleting your account removes it and its data from the server. This can't be undone.",
            "계정을 삭제하면 계정과 데이터가 서버에서 삭제됩니다. 이 작업은 되돌릴 수 없습니다.")(language))
        #expect(model.consequences.count == 5 && model.consequences.last == "Notes")
        #expect(model.consequences.first == Bilingual("You are signed out on every device.",
                                                      "모든 기기에서 로그아웃됩니다.")(language))
        #expect(model.reauthenticationNotice == Bilingual("To confirm it's you, you may be asked to sign in again.",
                                                          "본인 확인을 위해 다시 로그인하라는 요청을 받을 수 있습니다.")(language))
        #expect(model.deleteTitle == model.title && model.cancelTitle == Bilingual("Cancel", "취소")(language))
        #expect(model.phase == .confirming && model.isDeleteEnabled && model.isCancelEnabled)
        #expect(model.progressMessage == nil && model.resultMessage == nil && model.errorMessage == nil)

        try server.passStepUpMaxAge()
        await model.delete()
        #expect(phases.withLock { $0 } == [Bilingual("Confirm it's you…", "본인 확인 중…")(language)])
        #expect(model.phase == .deleted && deleted == 1)
        #expect(model.resultMessage == Bilingual("Your account has been deleted.", "계정이 삭제되었습니다.")(language))
        #expect(!model.isDeleteEnabled && model.isCancelEnabled)
        await #expect(throws: PasswordSessionError.invalidCredentials) {
            _ = try await PasswordSessionClient(baseURL: server.baseURL).signIn(username: name, password: Self.password)
        }
        await model.delete()
        #expect(deleted == 1, "once")
    }

    @Test(arguments: MessageLanguage.allCases)
    func aCancelledReauthenticationGoesBackAndAFailureIsShown(_ language: MessageLanguage) async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let prompts = AccountServer.Prompts()
        let (name, account) = try await Self.signedIn(server, reauthentication: AccountServer.password(server, nil,
                                                                                                        prompts: prompts))
        let model = DeleteAccountScreenModel(account: account, language: language) {
            Issue.record("nothing was deleted")
        }
        try server.passStepUpMaxAge()
        await model.delete()
        #expect(prompts.usernames == [name])
        #expect(model.phase == .confirming && model.errorMessage == nil, "a cancellation says nothing")

        server.stop()
        await model.delete()
        guard case .failed(.network) = model.phase else {
            Issue.record("\(model.phase)")
            return
        }
        #expect(model.errorMessage?.hasPrefix(Bilingual("Could not reach the server", "서버에 연결할 수 없습니다")(language)) == true)
        #expect(model.isDeleteEnabled, "it can be tried again")
        model.dismissError()
        #expect(model.phase == .confirming)
    }

    @Test func aDeviceThatKeptSomethingIsClearedOnTheNextTry() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (_, _, tokens) = try await server.signedInAccount("ren")
        let failing = Locked(true)
        let account = KitAccountManager(
            baseURL: server.baseURL, tokens: tokens,
            reauthentication: AccountReauthentication { _ in throw CancellationError() },
            deviceData: AccountDeviceData(additional: [{
                if failing.withLock({ $0 }) { throw CocoaError(.fileWriteNoPermission) }
            }]))
        var deleted = 0
        let model = DeleteAccountScreenModel(account: account, language: .english) { deleted += 1 }
        await model.delete()
        guard case .failed(.deviceDataNotCleared) = model.phase else {
            Issue.record("\(model.phase)")
            return
        }
        #expect(model.errorMessage?.hasPrefix("The account was deleted, but this device still holds some of its data") == true)
        failing.withLock { $0 = false }
        await model.delete()   // the server's account is gone: only the device is cleared again
        #expect(model.phase == .deleted && deleted == 1)
    }

    // MARK: - Devices

    @Test(arguments: MessageLanguage.allCases)
    func theDevicesListMarksThisOneAndSignsOthersOut(_ language: MessageLanguage) async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (name, account) = try await Self.signedIn(server, deviceName: "Mina's iPhone")
        let laptop = try await server.signIn(name, password: Self.password, deviceName: "Mina's MacBook")
        let tablet = try await server.signIn(name, password: Self.password, deviceName: "Mina's iPad")
        _ = try await server.server.request("POST", "v1/session/password",
                                            json: ["username": name, "password": Self.password])   // no device name
        var signedOut = 0
        let utc = try #require(TimeZone(identifier: "UTC"))
        let model = DevicesScreenModel(account: account, language: language, timeZone: utc) { signedOut += 1 }
        #expect(model.title == Bilingual("Devices", "기기")(language))
        #expect(model.message == Bilingual("You're signed in on these devices. Sign out any you don't recognize.",
                                           "다음 기기에서 로그인되어 있습니다. 알 수 없는 기기는 로그아웃하세요.")(language))

        await model.load()
        #expect(model.sessions.count == 4 && model.errorMessage == nil)
        let this = try #require(model.sessions.first)
        #expect(model.name(of: this) == "Mina's iPhone" && model.badge(of: this) == Bilingual("This Device", "이 기기")(language))
        #expect(model.endTitle(for: this) == Bilingual("Sign Out of This Device", "이 기기에서 로그아웃")(language))
        let others = model.sessions.dropFirst()
        #expect(others.allSatisfy { model.badge(of: $0) == nil })
        #expect(others.allSatisfy { model.endTitle(for: $0) == Bilingual("Sign Out", "로그아웃")(language) })
        // The User-Agent names a session that gave no name; the kit's own sign-ins gave theirs.
        #expect(Set(others.map { model.name(of: $0) }).isSuperset(of: ["Mina's MacBook", "Mina's iPad"]))
        let when = try #require(this.lastUsedAt).formatted(model.dateStyle)
        #expect(model.details(of: this) == Bilingual("Password · Last active \(when) · 127.0.0.1",
                                                     "비밀번호 · 최근 활동 \(when) · 127.0.0.1")(language))
        #expect(model.dateStyle.locale.identifier == (language == .korean ? "ko_KR" : "en_US"))
        let unnamed = AccountSession(id: "x", createdAt: Date(), lastUsedAt: nil, deviceName: nil, clientAddress: nil,
                                     signInMethod: nil, isCurrent: false)
        #expect(model.name(of: unnamed) == Bilingual("Unknown Device", "알 수 없는 기기")(language))
        #expect(model.showsEndOthers && model.isIdle)

        // One.
        let macBook = try #require(model.sessions.first { $0.deviceName == "Mina's MacBook" })
        await model.end(macBook)
        #expect(model.notice == Bilingual("Signed out Mina's MacBook.", "Mina's MacBook에서 로그아웃했습니다.")(language))
        #expect(model.sessions.count == 3 && !model.sessions.contains(macBook))
        #expect(try await server.refresh(laptop.refreshToken) == "400 invalid_grant")
        // A stale row (ended elsewhere) just leaves the list.
        await model.end(macBook)
        #expect(model.errorMessage == nil)

        // All the others.
        await model.endAllOthers()
        #expect(model.notice == Bilingual("Signed out 2 other devices.", "다른 기기 2대에서 로그아웃했습니다.")(language))
        #expect(model.sessions.map(\.id) == [this.id] && !model.showsEndOthers)
        #expect(try await server.refresh(tablet.refreshToken) == "400 invalid_grant")
        await model.load()
        #expect(model.sessions.map(\.id) == [this.id])

        // This device: the app is signed out.
        await model.end(this)
        #expect(signedOut == 1 && model.sessions.isEmpty)
        #expect(try await account.tokens.storedTokens() == nil)
        await model.load()
        #expect(model.errorMessage == Bilingual("You are signed out. Sign in and try again.",
                                                "로그아웃되었습니다. 로그인한 후 다시 시도하세요.")(language))
    }
}

/// The screen model, for a re-authentication closure made before it.
@MainActor
final class ModelBox {
    var model: DeleteAccountScreenModel?
}
