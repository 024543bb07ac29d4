#if LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import LatchkeyTestSupport
import Latchkey
import LatchkeyAuth
import LatchkeyKeychain
import LocalAuthentication
import Security
import Testing

/// The Apple-platform code paths of the kit, compiled against the package's Linux `Security` and
/// `LocalAuthentication` (the apple-frameworks build mode): each test would fail on the code before its fix.
@Suite(.serialized, .offCooperativePool) struct AppleFrameworksTests {
    init() { AppleFrameworksFixture.useTestKeychain() }

    private func simulator() throws -> SimulatedAuthenticator {
        let url = ChildProcess.simulatorStateFile("latchkey-apple")
        let simulator = SimulatedAuthenticator(stateURL: url)
        try simulator.setPasscode(Passcode("1357"))
        try simulator.enroll()
        return simulator
    }

    /// A protected item opens once per unlock with one prompt: the evaluated `LAContext` reaches the keychain
    /// (`kSecUseAuthenticationContext`). Before: AppleKeychainStore dropped it, the query ran with the UI
    /// disallowed, and the read always failed with errSecInteractionNotAllowed.
    @Test func aProtectedItemReadsWithOnePrompt() async throws {
        let simulator = try simulator()
        let authenticator = BiometricAuthenticator {
            AppleFrameworksFixture.platformContext(simulator.makeContext())
        }
        let item = ProtectedItem(service: "dev.latchkey.tests.\(UUID().uuidString)", account: "token",
                                 protection: .biometryAny, store: AppleKeychainStore(), authenticator: authenticator)
        try simulator.enqueue(.match)
        try await item.save(Data("refresh".utf8), reason: "Protect")
        try simulator.enqueue(.match)  // one scan: a second prompt would find no outcome and fail
        #expect(try await item.read(reason: "Sign in") == Data("refresh".utf8))
        try simulator.enqueue(.noMatch)
        await #expect(throws: ProtectedItemError.authentication(.failed)) { _ = try await item.read(reason: "Sign in") }
    }

    /// `SecItemUpdate` attributes never carry both `kSecAttrAccessControl` and `kSecAttrAccessible` (SecItem.h: they
    /// are mutually exclusive); the access control carries the accessibility asked for.
    @Test func updatesNeverCarryBothAccessKeys() throws {
        var changes = AttributeChanges()
        changes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: .userPresence)
        changes.accessibility = .afterFirstUnlock
        let prepared = try AppleKeychainStore().prepare(QueryDictionary.changesDictionary(changes), interactive: true)
        #expect(prepared[kSecAttrAccessible as String] == nil)
        let access = try #require(prepared[kSecAttrAccessControl as String] as? SecAccessControl)
        #expect(access.latchkeyAccessControl.accessibility == .afterFirstUnlock)
    }

    /// A non-interactive query (`authenticationUI == .fail`) goes to the system with an `LAContext` whose
    /// `interactionNotAllowed` is set — not the deprecated `kSecUseAuthenticationUI` key.
    @Test func nonInteractiveQueriesUseAContextNotTheDeprecatedKey() throws {
        var query = ItemQuery.genericPassword(service: "s", account: "a")
        query.authenticationUI = .fail
        let prepared = try AppleKeychainStore().prepare(QueryDictionary.queryDictionary(query), interactive: false)
        #expect(prepared[QueryKeys.useAuthenticationUI] == nil)
        let context = try #require(prepared[kSecUseAuthenticationContext as String] as? LAContext)
        #expect(context.interactionNotAllowed)
    }

    /// A macOS process without the keychain entitlement (an unsigned tool, `swift test`) gets errSecMissingEntitlement
    /// from the data-protection keychain: the store falls back to the file-based keychain and keeps working.
    @Test func toolsWithoutTheEntitlementUseTheFileBasedKeychain() throws {
        LatchkeySecurityConfiguration.dataProtectionKeychainNeedsEntitlement = true
        AppleKeychainAccess.reset()
        defer {
            LatchkeySecurityConfiguration.dataProtectionKeychainNeedsEntitlement = false
            AppleKeychainAccess.reset()
        }
        let keychain = Keychain(service: "dev.latchkey.tests.\(UUID().uuidString)", store: AppleKeychainStore())
        try keychain.set("s3cr3t", forKey: "token")
        #expect(try keychain.string(forKey: "token") == "s3cr3t")
        #expect(!AppleKeychainAccess.usesDataProtectionKeychain)
    }

    /// The domain state comes from iOS 18's `LAContext.domainState.biometry.stateHash` and changes with enrolment.
    @Test func domainStateFollowsEnrolment() throws {
        let simulator = try simulator()
        let context = AppleAuthenticationContext(context: LAContext(latchkeyContext: simulator.makeContext()))
        let before = try #require(context.domainState)
        #expect(before == LAContext(latchkeyContext: simulator.makeContext()).domainState.biometry.stateHash)
        try simulator.enroll()
        let after = AppleAuthenticationContext(context: LAContext(latchkeyContext: simulator.makeContext())).domainState
        #expect(after != nil && after != before)
    }

    /// The default keychain of the kit is the system keychain where Apple's frameworks are used.
    @Test func theDefaultStoreIsTheSystemKeychain() throws {
        #expect(try Keychain.defaultStoreDescription() == nil)
        let keychain = Keychain(service: "dev.latchkey.tests.\(UUID().uuidString)")
        try keychain.set("v", forKey: "k")
        #expect(try keychain.string(forKey: "k") == "v")
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: keychain.service,
                                    kSecReturnData as String: true]
        var result: CFTypeRef?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        query[kSecAttrAccount as String] = "k"
        #expect(SecItemDelete(query as CFDictionary) == errSecSuccess)
    }
}
#endif
