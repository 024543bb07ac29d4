import Foundation

/// `AuthenticationDevice` over the simulator's control file: every call reads the shared state fresh,
/// so several processes see one device.
package struct SimulatedDevice: AuthenticationDevice {
    package let file: LockedStateFile<SimulatedSensor>

    package func status() throws(AuthenticationError) -> DeviceStatus {
        let sensor = try load()
        return DeviceStatus(biometryType: sensor.biometryType, biometryEnrolled: sensor.enrolled,
                            passcodeSet: sensor.passcodeSet, failedBiometricAttempts: sensor.failedAttempts,
                            lastBiometricUnlock: sensor.lastBiometricUnlock, domainState: sensor.domainState)
    }

    package func scanBiometry(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) -> BiometricScanOutcome {
        try change { $0.takeOutcome() }
    }

    package func verifyPasscode(_ prompt: AuthenticationPrompt,
                        provider: (any PasscodeProvider)?) async throws(AuthenticationError) {
        guard try load().passcodeSet else { throw .passcodeNotSet }
        guard let provider else { throw .notInteractive }
        guard let passcode = await provider.passcode(for: prompt) else { throw .userCancel }
        guard try load().accepts(passcode) else { throw .authenticationFailed }
    }

    package func recordBiometricFailure() throws(AuthenticationError) -> Int {
        try change { sensor in
            sensor.failedAttempts += 1
            return sensor.failedAttempts
        }
    }

    package func recordSuccess(_ method: AuthenticationMethod) throws(AuthenticationError) {
        try change { $0.failedAttempts = 0 }
    }

    package func secret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        guard let secret = try load().secret(for: domain) else { throw .authenticationFailed }
        return secret
    }

    private func load() throws(AuthenticationError) -> SimulatedSensor {
        do { return try file.read() } catch { throw .biometryNotAvailable }
    }

    private func change<R>(_ body: (inout SimulatedSensor) -> R) throws(AuthenticationError) -> R {
        do { return try file.update(body).result } catch { throw .systemCancel }
    }
}
