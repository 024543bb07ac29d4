import Foundation
import LatchkeyAuth
import LatchkeyKeychain
import LocalAuthentication
import Security

/// How the kit's tests reach the platform's backends. On Linux, contexts and stores are used as made; in the
/// apple-frameworks mode every authentication context is wrapped the way an app on an iPhone has it —
/// `AppleAuthenticationContext` over an `LAContext` (here the package's Linux `LocalAuthentication`, with the test's
/// simulated device behind it) — and stores can be the system keychain (`AppleKeychainStore` over the package's
/// Linux `Security`, whose items live in one in-memory store for the test process — in both modes, since the Linux
/// `AuthenticationServices` keeps its passkeys there).
enum AppleFrameworksFixture {
    /// `context` as the platform's backend presents it.
    static func platformContext(_ context: any AuthenticationContext) -> any AuthenticationContext {
        #if LATCHKEY_APPLE_FRAMEWORKS
        return AppleAuthenticationContext(context: LAContext(latchkeyContext: context),
                                          service: "dev.latchkey.tests.domain.\(UUID().uuidString)")
        #else
        return context
        #endif
    }

    /// The items of the Security facade: one in-memory store for the process (set once; tests keep apart by service).
    private static let keychain: Void = { LatchkeySecurityConfiguration.store = MemoryStore() }()

    /// Points the Security facade at the test keychain.
    static func useTestKeychain() { _ = keychain }
}
