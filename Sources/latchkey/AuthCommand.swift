import Foundation
import Latchkey

/// `latchkey auth status | test | simulate` — device-owner authentication from the terminal.
///
/// Backend: `--backend simulated|pam` or `LATCHKEY_AUTH_BACKEND`; by default the simulator when
/// `LATCHKEY_SIMULATOR_STATE` is set, PAM otherwise. Passcodes are read from the terminal with echo
/// off (or one line of stdin in scripts), never from arguments.
/// Exit codes: 0 ok, 77 authentication failed or canceled, 69 unavailable, 64 usage, 1 other failure.
enum AuthCommand {
    static let usage = """
    usage: latchkey auth status [--backend simulated|pam]
           latchkey auth test --policy biometrics|owner [--backend simulated|pam] [--reason TEXT]
                              [--fallback-title TEXT] [--reuse SECONDS] [--no-interaction]
           latchkey auth simulate enroll|unenroll|match|no-match|cancel|fallback|system-cancel
                                  |set-passcode|remove-passcode|unlock|reset
           latchkey auth simulate biometry faceid|touchid|opticid|none
           latchkey auth simulate default match|no-match|cancel|fallback|system-cancel|none
    """

    static func run(_ arguments: [String]) -> Int32 {
        guard let subcommand = arguments.first else { return usageError("missing subcommand") }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "status": return status(rest)
        case "test": return test(rest)
        case "simulate": return simulate(rest)
        case "help", "--help", "-h":
            print(usage)
            return 0
        default: return usageError("unknown subcommand '\(subcommand)'")
        }
    }

    // MARK: - status

    private static func status(_ arguments: [String]) -> Int32 {
        guard let options = Options.parse(arguments, allowed: ["--backend"]) else { return usageError("bad option") }
        guard let backend = chooseBackend(options) else { return usageError("unknown backend") }
        var lines = ["backend: \(backend.rawValue)"]
        let context = backend.makeContext()
        let biometrics = availability(of: .deviceOwnerAuthenticationWithBiometrics, in: context)
        let owner = availability(of: .deviceOwnerAuthentication, in: context)
        lines.append("biometry: \(context.biometryType.displayName) (\(context.biometryType))")
        switch backend {
        case .simulated:
            let simulator = SimulatedAuthenticator()
            guard let sensor = try? simulator.sensor() else {
                return failure("cannot read \(simulator.stateURL.path)", code: 69)
            }
            lines.append("state: \(simulator.stateURL.path)")
            lines.append("enrolled: \(sensor.enrolled ? "yes" : "no")")
            lines.append("passcode: \(sensor.passcodeSet ? "set" : "not set")")
            lines.append("lockout: \(sensor.isLockedOut ? "yes" : "no")")
            lines.append("failures: \(sensor.failedAttempts)")
            lines.append("pending: \(sensor.pendingOutcomes.map(\.rawValue).joined(separator: ", "))")
            lines.append("default: \(sensor.defaultOutcome?.rawValue ?? "none (prompts time out)")")
        case .pam:
            #if os(Linux)
            let pam = PAMAuthenticator(configuration: .fromEnvironment())
            lines.append("service: \(pam.configuration.service)")
            lines.append("user: \(pam.user)")
            lines.append("biometric service: \(pam.configuration.biometricService ?? "none")")
            lines.append("enrolled: \(pam.configuration.biometricService == nil ? "no (no biometric service)" : "yes")")
            let failures = (try? pam.failedAttempts()) ?? 0
            lines.append("lockout: \(failures >= LocalAuthenticationRules.maximumFailedBiometricAttempts ? "yes" : "no")")
            lines.append("failures: \(failures)")
            #endif
        case .apple:
            break
        }
        lines.append("biometrics policy: \(biometrics)")
        lines.append("owner policy: \(owner)")
        print(lines.joined(separator: "\n"))
        return 0
    }

    // MARK: - test

    private static func test(_ arguments: [String]) -> Int32 {
        guard let options = Options.parse(arguments, allowed: ["--backend", "--policy", "--reason", "--fallback-title",
                                                              "--reuse"], flags: ["--no-interaction"])
        else { return usageError("bad option") }
        guard let backend = chooseBackend(options) else { return usageError("unknown backend") }
        let policy: Policy
        switch options.values["--policy"] {
        case "biometrics"?: policy = .deviceOwnerAuthenticationWithBiometrics
        case "owner"?: policy = .deviceOwnerAuthentication
        default: return usageError("--policy biometrics|owner is required")
        }
        let context = backend.makeContext(passcodeProvider: TerminalPasscodeProvider())
        if let title = options.values["--fallback-title"] { context.localizedFallbackTitle = title }
        if let reuse = options.values["--reuse"] {
            guard let seconds = Double(reuse) else { return usageError("--reuse needs seconds") }
            context.reuseDuration = seconds
        }
        context.interactionNotAllowed = options.flags.contains("--no-interaction")
        let reason = options.values["--reason"] ?? "latchkey auth test"
        let result = blocking { () async -> AuthenticationError? in
            do throws(AuthenticationError) {
                try await context.evaluate(policy, reason: reason)
                return nil
            } catch {
                return error
            }
        }
        context.invalidate()
        guard let result else { return failure("the evaluation did not finish", code: 1) }
        guard let error = result else {
            print("ok: device owner authenticated (\(context.biometryType.displayName))")
            return 0
        }
        return failure("\(AuthError(error).localizedDescription) [LAError \(error.code)]", code: exitCode(for: error))
    }

    // MARK: - simulate

    private static func simulate(_ arguments: [String]) -> Int32 {
        guard let action = arguments.first else { return usageError("missing simulate action") }
        let simulator = SimulatedAuthenticator()
        let argument = arguments.dropFirst().first
        do throws(SimulatorError) {
            switch action {
            case "enroll": try simulator.enroll()
            case "unenroll": try simulator.unenroll()
            case "match", "no-match", "cancel", "fallback", "system-cancel":
                guard let outcome = scanOutcome(action) else { return usageError("bad outcome") }
                try simulator.enqueue(outcome)
            case "default":
                guard let argument else { return usageError("default needs an outcome or none") }
                if argument == "none" {
                    try simulator.setDefaultOutcome(nil)
                } else {
                    guard let outcome = scanOutcome(argument) else { return usageError("bad outcome '\(argument)'") }
                    try simulator.setDefaultOutcome(outcome)
                }
            case "biometry":
                let types: [String: BiometryType] = ["faceid": .faceID, "touchid": .touchID, "opticid": .opticID,
                                                     "none": .none]
                guard let argument, let type = types[argument.lowercased()] else {
                    return usageError("biometry faceid|touchid|opticid|none")
                }
                try simulator.setBiometryType(type)
            case "set-passcode":
                let provider = TerminalPasscodeProvider()
                let prompt = AuthenticationPrompt(kind: .passcode, policy: .deviceOwnerAuthentication,
                                                  reason: "", message: "New simulator passcode: ")
                guard let answer = blocking({ await provider.passcode(for: prompt) }), let passcode = answer,
                      passcode.count > 0 else {
                    return failure("no passcode given", code: 77)
                }
                try simulator.setPasscode(passcode)
            case "remove-passcode": try simulator.setPasscode(nil)
            case "unlock": try simulator.unlockDevice()
            case "reset": try simulator.reset()
            default: return usageError("unknown simulate action '\(action)'")
            }
        } catch {
            return failure(error.localizedDescription, code: error == .passcodeRequired || error == .biometryUnusable
                           || error == .noBiometricHardware ? 69 : 1)
        }
        if let sensor = try? simulator.sensor() { print(sensor) }
        return 0
    }

    // MARK: - Helpers

    private struct Options {
        var values: [String: String] = [:]
        var flags: Set<String> = []

        static func parse(_ arguments: [String], allowed: Set<String>, flags allowedFlags: Set<String> = []) -> Options? {
            var options = Options()
            var index = 0
            while index < arguments.count {
                let name = arguments[index]
                if allowedFlags.contains(name) {
                    options.flags.insert(name)
                    index += 1
                } else if allowed.contains(name), index + 1 < arguments.count {
                    options.values[name] = arguments[index + 1]
                    index += 2
                } else {
                    return nil
                }
            }
            return options
        }
    }

    private static func chooseBackend(_ options: Options) -> AuthenticationBackend? {
        if let name = options.values["--backend"] { return AuthenticationBackend(rawValue: name.lowercased()) }
        return AuthenticationBackend.fromEnvironment()
    }

    private static func scanOutcome(_ name: String) -> BiometricScanOutcome? {
        switch name {
        case "match": .match
        case "no-match": .noMatch
        case "cancel": .cancel
        case "fallback": .fallback
        case "system-cancel": .systemCancel
        default: nil
        }
    }

    private static func availability(of policy: Policy, in context: any AuthenticationContext) -> String {
        do throws(AuthenticationError) {
            try context.canEvaluate(policy)
            return "available"
        } catch {
            return "\(error) (LAError \(error.code))"
        }
    }

    static func exitCode(for error: AuthenticationError) -> Int32 {
        switch error {
        case .authenticationFailed, .userCancel, .userFallback, .systemCancel, .appCancel: 77
        case .biometryNotAvailable, .biometryNotEnrolled, .biometryLockout, .passcodeNotSet, .notInteractive,
             .invalidContext: 69
        }
    }

    /// Runs async work from the synchronous CLI entry point.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T? {
        let box = BlockingBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value
    }

    private static func failure(_ message: String, code: Int32) -> Int32 {
        FileHandle.standardError.write(Data("latchkey auth: \(message)\n".utf8))
        return code
    }

    private static func usageError(_ message: String) -> Int32 {
        failure("\(message)\n\n\(usage)", code: 64)
    }
}

/// Carries a task's result to the waiting thread.
private final class BlockingBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: written once by the task before the semaphore is signalled, read after the wait.
    var value: T?
}
