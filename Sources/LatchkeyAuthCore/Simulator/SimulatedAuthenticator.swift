import Foundation

/// The iOS Simulator's Features ▸ Face ID / Touch ID menu as an API, over a control file that several
/// processes (tests, the CLI, the demo) share as one device.
///
/// The control file is JSON, mode 0600, at `LATCHKEY_SIMULATOR_STATE` or
/// `$XDG_STATE_HOME/latchkey/simulator.json`; every change happens under a file lock.
/// Contexts made by `makeContext` implement `AuthenticationContext` with LocalAuthentication's rules.
public struct SimulatedAuthenticator: Sendable {
    /// The control file.
    public let stateURL: URL
    package let file: LockedStateFile<SimulatedSensor>

    /// A simulator over the control file at `stateURL` (created on first use as a new device).
    public init(stateURL: URL) {
        self.stateURL = stateURL
        file = LockedStateFile(url: stateURL) { SimulatedSensor() }
    }

    /// The simulator at `LATCHKEY_SIMULATOR_STATE`, else `$XDG_STATE_HOME/latchkey/simulator.json`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(stateURL: Self.defaultStateURL(environment: environment))
    }

    /// Where the control file is by default.
    public static func defaultStateURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["LATCHKEY_SIMULATOR_STATE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return StateDirectory.url(environment: environment).appendingPathComponent("simulator.json")
    }

    /// A new context on this device.
    public func makeContext(passcodeProvider: (any PasscodeProvider)? = nil,
                            clock: AuthenticationClock = .system) -> DeviceOwnerContext {
        DeviceOwnerContext(device: SimulatedDevice(file: file), passcodeProvider: passcodeProvider, clock: clock)
    }

    /// The device state now.
    public func sensor() throws(StateFileError) -> SimulatedSensor { try file.read() }

    // MARK: - The Features menu

    /// "Enrolled": enrols a face/finger; when already enrolled, enrols a new one (changes `domainState`,
    /// kills `biometryCurrentSet` items, keeps `biometryAny` ones). Needs a passcode, as on iOS.
    public func enroll() throws(SimulatorError) {
        try mutate { sensor throws(SimulatorError) in
            guard sensor.biometryType != .none else { throw .noBiometricHardware }
            guard sensor.passcodeSet else { throw .passcodeRequired }
            sensor.enroll()
        }
    }

    /// Un-ticks "Enrolled": removes all enrolments.
    public func unenroll() throws(SimulatorError) { try mutate { $0.unenroll() } }

    /// Chooses the sensor hardware; `.none` also removes enrolments.
    public func setBiometryType(_ type: BiometryType) throws(SimulatorError) {
        try mutate { sensor in
            if type == .none { sensor.unenroll() }
            sensor.biometryType = type
        }
    }

    /// Sets, changes or (nil) removes the passcode to accept.
    public func setPasscode(_ passcode: Passcode?) throws(SimulatorError) { try mutate { $0.setPasscode(passcode) } }

    /// Queues what the next prompt sees: "Matching Face", "Non-matching Face", Cancel, fallback, dismissal.
    public func enqueue(_ outcomes: BiometricScanOutcome...) throws(SimulatorError) {
        try mutate { $0.pendingOutcomes.append(contentsOf: outcomes) }
    }

    /// The outcome for prompts when nothing is queued; `nil` makes them time out (`systemCancel`).
    public func setDefaultOutcome(_ outcome: BiometricScanOutcome?) throws(SimulatorError) {
        try mutate { $0.defaultOutcome = outcome }
    }

    /// Records that the user unlocked the device with biometry at `date` (for `reuseDuration`).
    public func unlockDevice(at date: Date = Date()) throws(SimulatorError) {
        try mutate { sensor throws(SimulatorError) in
            guard sensor.enrolled, !sensor.isLockedOut else { throw .biometryUnusable }
            sensor.lastBiometricUnlock = date
            sensor.failedAttempts = 0
        }
    }

    /// Erases the device: a new identity, nothing enrolled, no passcode, new secrets.
    public func reset(biometryType: BiometryType = .faceID) throws(SimulatorError) {
        try mutate { $0 = SimulatedSensor(biometryType: biometryType) }
    }

    private func mutate(_ body: (inout SimulatedSensor) throws(SimulatorError) -> Void) throws(SimulatorError) {
        let outcome: Result<Void, SimulatorError>
        do {
            outcome = try file.update { sensor -> Result<Void, SimulatorError> in
                var copy = sensor
                do throws(SimulatorError) {
                    try body(&copy)
                    sensor = copy
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }.result
        } catch {
            throw .stateFile(error)
        }
        try outcome.get()
    }
}
