#if os(Linux)
import Foundation
import LatchkeyAuthCore

/// `AuthenticationDevice` over PAM transactions plus the user's state file.
struct PAMDevice: AuthenticationDevice {
    let authenticator: PAMAuthenticator
    let clock: AuthenticationClock

    private var configuration: PAMAuthenticator.Configuration { authenticator.configuration }

    func status() throws(AuthenticationError) -> DeviceStatus {
        let state = try load()
        let hasBiometry = configuration.biometricService != nil
        return DeviceStatus(biometryType: hasBiometry ? configuration.biometryType : .none,
                            biometryEnrolled: hasBiometry, passcodeSet: true,
                            failedBiometricAttempts: state.failedAttempts,
                            lastBiometricUnlock: state.lastBiometricUnlock,
                            domainState: hasBiometry ? state.domainState : nil)
    }

    func scanBiometry(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) -> BiometricScanOutcome {
        guard let service = configuration.biometricService else { throw .biometryNotAvailable }
        let outcome = await run(service: service, prompt: prompt, provider: configuration.biometricResponder)
        let result = PAMStatus.biometricOutcome(outcome.code, conversation: outcome.conversation)
        let scan = try result.get()
        if scan == .match { try change { $0.lastBiometricUnlock = clock.now } }
        return scan
    }

    func verifyPasscode(_ prompt: AuthenticationPrompt,
                        provider: (any PasscodeProvider)?) async throws(AuthenticationError) {
        let outcome = await run(service: configuration.service, prompt: prompt, provider: provider)
        if let error = PAMStatus.passcodeError(outcome.code, conversation: outcome.conversation) { throw error }
    }

    func recordBiometricFailure() throws(AuthenticationError) -> Int {
        try change { state in
            state.failedAttempts += 1
            return state.failedAttempts
        }
    }

    func recordSuccess(_ method: AuthenticationMethod) throws(AuthenticationError) {
        try change { $0.failedAttempts = 0 }
    }

    func secret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        guard let secret = try load().secrets[domain.rawValue] else { throw .authenticationFailed }
        return secret
    }

    private func run(service: String, prompt: AuthenticationPrompt,
                     provider: (any PasscodeProvider)?) async -> PAMTransaction.Outcome {
        let responder = PAMResponder(provider: provider, prompt: prompt)
        return await PAMTransaction.run(service: service, user: authenticator.user,
                                        configurationDirectory: configuration.configurationDirectory?.path,
                                        responder: responder)
    }

    private func load() throws(AuthenticationError) -> PAMDeviceState {
        do { return try authenticator.file.read() } catch { throw .biometryNotAvailable }
    }

    private func change<R>(_ body: (inout PAMDeviceState) -> R) throws(AuthenticationError) -> R {
        do { return try authenticator.file.update(body).result } catch { throw .systemCancel }
    }
}
#endif
