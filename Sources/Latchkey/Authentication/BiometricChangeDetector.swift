import Foundation
import LatchkeyAuth
import LatchkeyCrypto

/// Notices when biometric enrolment changed since the app last trusted it (someone added a face or
/// finger), reports it once, and runs a wipe hook (delete protected items, sign out tokens).
///
/// The first check trusts what it finds. A change calls `onChange`; only when the hook returns is the
/// new state trusted, so a failed wipe is reported again by the next check rather than forgotten.
public actor BiometricChangeDetector {
    /// What `check()` found.
    public enum Change: Sendable, Equatable {
        /// Nothing was trusted yet; the current state is trusted now.
        case firstCheck
        /// The enrolment is the one trusted.
        case unchanged
        /// The enrolment changed (or biometry was removed / set up); the hook ran.
        case changed
    }

    private let store: any DomainStateStore
    private let makeContext: BiometricAuthenticator.ContextFactory
    private let onChange: @Sendable () async throws -> Void

    /// A detector reading contexts from `makeContext`, remembering in `store`, wiping with `onChange`.
    public init(store: any DomainStateStore,
                makeContext: @escaping BiometricAuthenticator.ContextFactory,
                onChange: @escaping @Sendable () async throws -> Void = {}) {
        self.store = store
        self.makeContext = makeContext
        self.onChange = onChange
    }

    /// Compares the device's domain state with the trusted one.
    public func check() async throws(BiometricChangeError) -> Change {
        let current = currentDomainState()
        let trusted: TrustedDomainState?
        do { trusted = try store.loadTrustedState() } catch { throw .store(error) }
        guard let trusted else {
            try save(current)
            return .firstCheck
        }
        if trusted.domainState == current { return .unchanged }
        do {
            try await onChange()
        } catch {
            throw .wipeFailed
        }
        try save(current)
        return .changed
    }

    /// Trusts the current enrolment without running the hook (e.g. after the user re-authenticated
    /// with the account password).
    public func trustCurrentState() throws(BiometricChangeError) { try save(currentDomainState()) }

    private func currentDomainState() -> Data? {
        let context = makeContext()
        _ = try? context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics)
        return context.domainState
    }

    private func save(_ state: Data?) throws(BiometricChangeError) {
        do { try store.saveTrustedState(TrustedDomainState(domainState: state)) } catch { throw .store(error) }
    }
}

/// Why a change check could not finish.
public enum BiometricChangeError: Error, Sendable, Equatable {
    /// The trusted state could not be read or saved.
    case store(DomainStateStoreError)
    /// The wipe hook threw; the change will be reported again.
    case wipeFailed
}

extension BiometricChangeError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .store(error):
            return error.errorDescription
        case .wipeFailed:
            return MessageLanguage.current.pick(
                english: "Biometric enrolment changed, but removing the protected data failed; it will be retried.",
                korean: "생체 등록이 변경되었지만 보호된 데이터를 삭제하지 못했습니다. 다시 시도합니다.")
        }
    }
}
