#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux

/// `LAContext` over a Latchkey `AuthenticationContext` (see `LatchkeyLocalAuthenticationConfiguration`).
/// As on Apple platforms, a successful evaluation belongs to this instance: pass it to keychain queries
/// with `kSecUseAuthenticationContext`.
/// `NSErrorPointer` (Foundation on Linux has none): `var error: NSError?; ctx.canEvaluatePolicy(p, error: &error)`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

@available(macOS 10.10, iOS 8.0, watchOS 3.0, *)
@available(tvOS, unavailable)
open class LAContext: NSObject {
    /// The Latchkey context this object wraps.
    public let latchkeyAuthenticationContext: any AuthenticationContext

    /// A context of the configured backend.
    public override init() {
        latchkeyAuthenticationContext = LatchkeyLocalAuthenticationConfiguration.makeContext()
        super.init()
    }

    /// A context over `context` (Linux only).
    public init(latchkeyContext context: any AuthenticationContext) {
        latchkeyAuthenticationContext = context
        super.init()
    }

    /// The sensor kind of the backend.
    @available(macOS 10.13.2, iOS 11.0, watchOS 11.0, *)
    open var biometryType: LABiometryType { LABiometryType(latchkeyAuthenticationContext.biometryType) }

    /// Changes whenever biometric enrolment changes (nil without enrolled biometry).
    @available(macOS, introduced: 10.11, deprecated: 15.0)
    @available(iOS, introduced: 9.0, deprecated: 18.0)
    @available(watchOS, unavailable)
    open var evaluatedPolicyDomainState: Data? { latchkeyAuthenticationContext.domainState }

    /// The reason shown when the keychain prompts with this context.
    @available(macOS 10.13, iOS 11.0, *)
    @available(watchOS, unavailable)
    open var localizedReason: String = ""

    /// Fallback button title; "" hides it.
    @available(watchOS, unavailable)
    open var localizedFallbackTitle: String? {
        get { latchkeyAuthenticationContext.localizedFallbackTitle }
        set { latchkeyAuthenticationContext.localizedFallbackTitle = newValue }
    }

    /// Cancel button title.
    @available(macOS 10.12, iOS 10.0, *)
    @available(watchOS, unavailable)
    open var localizedCancelTitle: String? {
        get { latchkeyAuthenticationContext.localizedCancelTitle }
        set { latchkeyAuthenticationContext.localizedCancelTitle = newValue }
    }

    /// A device unlock this recent (seconds, at most 300) counts as an evaluation.
    @available(macOS 10.12, iOS 9.0, *)
    @available(watchOS, unavailable)
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { latchkeyAuthenticationContext.reuseDuration }
        set { latchkeyAuthenticationContext.reuseDuration = min(max(newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration) }
    }

    /// When true, evaluations that would prompt fail with `LAError.notInteractive`.
    @available(macOS 10.13, iOS 11.0, watchOS 4.0, *)
    open var interactionNotAllowed: Bool {
        get { latchkeyAuthenticationContext.interactionNotAllowed }
        set { latchkeyAuthenticationContext.interactionNotAllowed = newValue }
    }

    /// Whether `policy` can be evaluated; on false, `error` receives an NSError in `LAErrorDomain`.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        guard let p = policy.latchkeyPolicy else {
            error?.pointee = LAError(.companionNotAvailable) as NSError
            return false
        }
        do {
            try latchkeyAuthenticationContext.canEvaluate(p)
            return true
        } catch let failure {
            error?.pointee = LAError(failure) as NSError
            return false
        }
    }

    /// Evaluates `policy`; `reply` runs on another thread with the outcome and an `LAError`.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String,
                             reply: @escaping (Bool, (any Error)?) -> Void) {
        let box = ReplyBox(reply)
        let context = latchkeyAuthenticationContext
        let p = policy.latchkeyPolicy
        Task.detached {
            guard let p else { box.reply(false, LAError(.companionNotAvailable)); return }
            do {
                try await context.evaluate(p, reason: localizedReason)
                box.reply(true, nil)
            } catch {
                box.reply(false, LAError(error as? AuthenticationError ?? .authenticationFailed))
            }
        }
    }

    /// Evaluates `policy`; returns true or throws an `LAError`.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        guard let p = policy.latchkeyPolicy else { throw LAError(.companionNotAvailable) }
        do {
            try await latchkeyAuthenticationContext.evaluate(p, reason: localizedReason)
            return true
        } catch {
            throw LAError(error)
        }
    }

    /// Ends the context: running and later evaluations fail with `LAError.invalidContext`; set credentials are dropped.
    @available(macOS 10.11, iOS 9.0, *)
    open func invalidate() {
        latchkeyAuthenticationContext.invalidate()
    }

    /// Gives the context a credential of `type` (nil removes it); true when the context keeps it. An
    /// `.applicationPassword` credential is the password `.applicationPassword` keychain items are sealed under
    /// (their key is derived from it with Argon2id): keychain calls with this context
    /// (`kSecUseAuthenticationContext`) use it instead of asking. Kept in memory that is zeroed when released.
    @available(macOS 10.11, iOS 9.0, *)
    @discardableResult
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        latchkeyAuthenticationContext.setCredential(credential.map { Passcode(bytes: $0) }, type: type.latchkeyType)
    }

    /// Whether a credential of `type` was set on this context (or the application password entered at its prompt).
    @available(macOS 10.11, iOS 9.0, *)
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        latchkeyAuthenticationContext.isCredentialSet(type.latchkeyType)
    }
}

/// Carries the reply closure to the evaluating task (Apple calls it on a private queue too).
package final class ReplyBox: @unchecked Sendable { // the closure is called once, from one task
    package let reply: (Bool, (any Error)?) -> Void
    package init(_ reply: @escaping (Bool, (any Error)?) -> Void) { self.reply = reply }
}
#endif
