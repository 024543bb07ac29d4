import Foundation
import LatchkeySupport

/// An `AuthenticationContext` that applies LocalAuthentication's rules over an `AuthenticationDevice`.
///
/// Rules (as `LAContext`):
/// - `canEvaluate` / `evaluate` check availability first (see `EvaluationRules`).
/// - A biometric device unlock within `reuseDuration` (capped at 300 s) succeeds without a prompt.
/// - `interactionNotAllowed` turns any evaluation that would prompt into `.notInteractive`.
/// - Biometrics policy: match → success; non-match → `.authenticationFailed` (the 5th failure in a row
///   → `.biometryLockout`); fallback button → `.userFallback`, unless `localizedFallbackTitle == ""` hides
///   it, in which case the non-match stays `.authenticationFailed`; Cancel → `.userCancel`;
///   system dismissal → `.systemCancel`.
/// - Device-owner policy: biometry first when usable; after a non-match or the fallback button the
///   passcode is asked for; when biometry is locked out or not enrolled the passcode is asked at once.
///   A passcode success resets the failure counter (lifts the lockout).
/// - Access-control requirements (`evaluate(_: AccessRequirement, reason:)`) follow their domains: a passcode-only
///   requirement asks only for the passcode; one needing biometry and the passcode asks for both.
/// - `invalidate()`: an evaluation in flight fails with `.appCancel`, later ones with `.invalidContext`.
/// - `releaseSecret(for:)` returns a domain's secret only after this context's successful evaluation
///   covering it; without one it rethrows the last failure (`.authenticationFailed`, `.userCancel`...)
///   or `.notInteractive` when nothing was evaluated.
public final class DeviceOwnerContext: AuthenticationContext, SealingKeyProviding {
    private struct State {
        var fallbackTitle: String?
        var cancelTitle: String?
        var reuseDuration: Double = 0
        var interactionNotAllowed = false
        var invalidated = false
        var granted: Set<ProtectionDomain> = []
        var grantedDomainState: Data?
        var lastFailure: AuthenticationError?
    }

    private let device: any AuthenticationDevice
    private let clock: AuthenticationClock
    private let passcodeProvider: (any PasscodeProvider)?
    private let state = Locked(State())
    private let credentials = CredentialStore()

    /// A context over `device`; `passcodeProvider` is the passcode sheet (without one, a passcode
    /// prompt fails with `.notInteractive`).
    public init(device: any AuthenticationDevice, passcodeProvider: (any PasscodeProvider)? = nil,
                clock: AuthenticationClock = .system) {
        self.device = device
        self.passcodeProvider = passcodeProvider
        self.clock = clock
    }

    /// The sensor type (`.none` when the device has no sensor or cannot be read).
    public var biometryType: BiometryType { (try? device.status())?.biometryType ?? .none }

    /// The device's current enrolment digest; `nil` without enrolled biometry.
    public var domainState: Data? { (try? device.status())?.domainState }

    /// Fallback button title; `""` hides the button.
    public var localizedFallbackTitle: String? {
        get { state.withLock { $0.fallbackTitle } }
        set { state.withLock { $0.fallbackTitle = newValue } }
    }

    /// Cancel button title.
    public var localizedCancelTitle: String? {
        get { state.withLock { $0.cancelTitle } }
        set { state.withLock { $0.cancelTitle = newValue } }
    }

    /// Reuse window for a biometric device unlock, clamped to 0...300 s.
    public var reuseDuration: Double {
        get { state.withLock { $0.reuseDuration } }
        set { state.withLock { $0.reuseDuration = LocalAuthenticationRules.clampedReuseDuration(newValue) } }
    }

    /// When true, evaluations that would prompt fail with `.notInteractive`.
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// Throws why `policy` cannot be evaluated now.
    public func canEvaluate(_ policy: Policy) throws(AuthenticationError) {
        if state.withLock({ $0.invalidated }) { throw .invalidContext }
        try EvaluationRules.check(policy, device.status())
    }

    /// Evaluates `policy`, prompting through the device and the passcode provider. A biometric device unlock
    /// within `reuseDuration` counts (LAContext's reuse window).
    public func evaluate(_ policy: Policy, reason: String) async throws(AuthenticationError) {
        try await prove(AccessRequirement(policy: policy), reason: reason, prompt: policy, allowingReuse: true)
    }

    /// Evaluates what an access control needs: the prompts follow its domains (see `AccessRequirement`), the
    /// reuse window does not apply (Apple: it covers device unlock, not keychain items), and the application
    /// password is asked for through the passcode provider when the requirement has one and none is set.
    public func evaluate(_ requirement: AccessRequirement, reason: String) async throws(AuthenticationError) {
        if !requirement.alternatives.isEmpty && !isProven(requirement) {
            try await prove(requirement, reason: reason, prompt: requirement.policy, allowingReuse: false)
        }
        if requirement.applicationPassword && !credentials.contains(.applicationPassword) {
            try await askApplicationPassword(reason: reason, policy: requirement.policy)
        }
    }

    /// Keeps `credential` (a `Passcode`, zeroed when released) until `invalidate()`.
    public func setCredential(_ credential: Passcode?, type: CredentialType) -> Bool {
        credentials.set(credential, for: type)
        return true
    }

    public func isCredentialSet(_ type: CredentialType) -> Bool { credentials.contains(type) }

    /// The credential set on this context or entered at its application-password prompt.
    public func credential(_ type: CredentialType) throws(AuthenticationError) -> Passcode {
        if state.withLock({ $0.invalidated }) { throw .invalidContext }
        return try credentials.get(type)
    }

    /// Invalidates the context: an evaluation in flight ends with `.appCancel`, later calls with `.invalidContext`;
    /// credentials are dropped.
    public func invalidate() {
        credentials.removeAll()
        state.withLock {
            $0.invalidated = true
            $0.granted = []
            $0.grantedDomainState = nil
        }
    }

    /// The domain's secret, only after this context's successful evaluation covering it.
    public func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        let snapshot = state.withLock { $0 }
        if snapshot.invalidated { throw .invalidContext }
        guard snapshot.granted.contains(domain) else { throw snapshot.lastFailure ?? .notInteractive }
        if domain == .biometryCurrentSet {
            // The evaluation was for the enrolment that existed then; a newer enrolment is not covered.
            guard let current = try? device.status().domainState,
                  current == snapshot.grantedDomainState else { throw .authenticationFailed }
        }
        return try device.secret(for: domain)
    }

    /// The domain's sealing key, with no prompt: a new item of the domain can be sealed at any time (Apple adds
    /// access-controlled items without asking), but only for a domain this device can prove — a passcode is set, and
    /// for biometry a sensor with something enrolled — as adding fails on Apple platforms without them.
    public func sealingKey(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        if state.withLock({ $0.invalidated }) { throw .invalidContext }
        let status = try device.status()
        guard status.passcodeSet else { throw .passcodeNotSet }
        if domain == .biometryAny || domain == .biometryCurrentSet {
            guard status.biometryType != .none else { throw .biometryNotAvailable }
            guard status.biometryEnrolled else { throw .biometryNotEnrolled }
        }
        let secret = try device.secret(for: domain)
        do { return try ProtectionDomainKey.publicKey(secret: secret) } catch { throw .authenticationFailed }
    }

    // MARK: - Evaluation

    /// Whether an earlier evaluation of this context already proved some alternative of `requirement`.
    private func isProven(_ requirement: AccessRequirement) -> Bool {
        let snapshot = state.withLock { $0 }
        guard !snapshot.invalidated else { return false }
        let currentState = snapshot.granted.contains(.biometryCurrentSet) ? (try? device.status())?.domainState : nil
        return requirement.alternatives.contains { alternative in
            alternative.allSatisfy { domain in
                snapshot.granted.contains(domain)
                    && (domain != .biometryCurrentSet || (currentState != nil && currentState == snapshot.grantedDomainState))
            }
        }
    }

    /// Runs the prompts `requirement` needs and records what they proved.
    private func prove(_ requirement: AccessRequirement, reason: String, prompt policy: Policy,
                       allowingReuse: Bool) async throws(AuthenticationError) {
        do {
            let methods = try await run(requirement, reason: reason, policy: policy, allowingReuse: allowingReuse)
            let status = try? device.status()
            state.withLock {
                for method in methods { $0.granted.formUnion(LocalAuthenticationRules.domains(coveredBy: method)) }
                if methods.contains(.biometry) { $0.grantedDomainState = status?.domainState }
                $0.lastFailure = nil
            }
        } catch {
            state.withLock { if $0.granted.isEmpty { $0.lastFailure = error } }
            throw error
        }
    }

    /// The prompts, as LocalAuthentication runs them:
    /// - a biometric match proves a biometric alternative; while an alternative can be proven by the passcode
    ///   alone, a non-match or the fallback button leads to the passcode (device-owner behaviour), otherwise it
    ///   counts as a failed match (biometrics-only behaviour: lockout after 5, `.userFallback`);
    /// - an alternative needing both asks for the passcode after the match;
    /// - a requirement the passcode alone proves, and no biometric alternative, asks only for the passcode.
    private func run(_ requirement: AccessRequirement, reason: String, policy: Policy,
                     allowingReuse: Bool) async throws(AuthenticationError) -> Set<AuthenticationMethod> {
        let settings = state.withLock { $0 }
        if settings.invalidated { throw .invalidContext }
        let status = try device.status()
        let byBiometry = requirement.biometryAlone
        let byPasscode = requirement.passcodeAlone
        // Availability as `canEvaluatePolicy`: a requirement the passcode can prove needs a passcode; one that
        // needs biometry needs usable biometry.
        try EvaluationRules.check(byPasscode ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics, status)

        if allowingReuse, byBiometry, status.isBiometryUsable,
           EvaluationRules.reuseAccepted(unlock: status.lastBiometricUnlock, now: clock.now,
                                         reuseDuration: settings.reuseDuration) {
            return [.biometry]
        }
        if settings.interactionNotAllowed { throw .notInteractive }

        let prompt = AuthenticationPrompt(kind: .biometry, policy: policy, reason: reason,
                                          fallbackTitle: settings.fallbackTitle, cancelTitle: settings.cancelTitle)
        let scans = byBiometry || (requirement.needsBoth && !byPasscode)
        if scans && status.isBiometryUsable {
            if byPasscode {
                if try await biometricFirst(prompt) { return [.biometry] }
                try await passcode(prompt)
                return [.passcode]
            }
            try await biometricOnly(prompt)
            if byBiometry { return [.biometry] }
            try await passcode(prompt)
            return [.biometry, .passcode]
        }
        // Here biometry is not scanned: the passcode alone proves the requirement (EvaluationRules refused the
        // others), whether or not biometry is usable.
        try await passcode(prompt)
        return [.passcode]
    }

    /// Asks for and checks the passcode; records the success (which lifts a biometric lockout).
    private func passcode(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) {
        let passcodePrompt = prompt.asPasscode()
        await passcodeProvider?.promptDidAppear(passcodePrompt)
        try throwIfCanceled()
        try await device.verifyPasscode(passcodePrompt, provider: passcodeProvider)
        try throwIfCanceled()
        try device.recordSuccess(.passcode)
    }

    /// Asks the passcode provider for the application password and keeps it as this context's credential.
    private func askApplicationPassword(reason: String, policy: Policy) async throws(AuthenticationError) {
        let settings = state.withLock { $0 }
        if settings.invalidated { throw .invalidContext }
        guard !settings.interactionNotAllowed, let passcodeProvider else { throw .notInteractive }
        let prompt = AuthenticationPrompt(kind: .applicationPassword, policy: policy, reason: reason,
                                          fallbackTitle: settings.fallbackTitle, cancelTitle: settings.cancelTitle)
        await passcodeProvider.promptDidAppear(prompt)
        try throwIfCanceled()
        guard let password = await passcodeProvider.passcode(for: prompt) else { throw .userCancel }
        try throwIfCanceled()
        credentials.set(password, for: .applicationPassword)
    }

    private func biometricOnly(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) {
        switch try await scan(prompt) {
        case .match:
            try device.recordSuccess(.biometry)
        case .noMatch:
            try recordFailure()
            throw .authenticationFailed
        case .fallback:
            try recordFailure()
            // A hidden fallback button cannot be pressed: the non-match stays a failed match.
            throw prompt.showsFallback ? .userFallback : .authenticationFailed
        case .cancel:
            throw .userCancel
        case .systemCancel:
            throw .systemCancel
        }
    }

    /// Returns true on a match, false when the passcode should be asked next.
    private func biometricFirst(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) -> Bool {
        switch try await scan(prompt) {
        case .match:
            try device.recordSuccess(.biometry)
            return true
        case .noMatch, .fallback:
            _ = try device.recordBiometricFailure()
            return false
        case .cancel:
            throw .userCancel
        case .systemCancel:
            throw .systemCancel
        }
    }

    private func scan(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) -> BiometricScanOutcome {
        await passcodeProvider?.promptDidAppear(prompt)
        try throwIfCanceled()
        let outcome = try await device.scanBiometry(prompt)
        try throwIfCanceled()
        return outcome
    }

    /// Counts a failed match; the failure that reaches the limit reports the lockout.
    private func recordFailure() throws(AuthenticationError) {
        let failures = try device.recordBiometricFailure()
        if failures >= LocalAuthenticationRules.maximumFailedBiometricAttempts { throw .biometryLockout }
    }

    private func throwIfCanceled() throws(AuthenticationError) {
        if state.withLock({ $0.invalidated }) { throw .appCancel }
    }
}
