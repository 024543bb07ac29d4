import Foundation
import LatchkeySupport
import LatchkeyTPM

/// Linux-only settings of `SecureEnclave` (no Apple counterpart): which TPM 2.0 keys are made and used in.
///
/// The TPM is chosen as tpm2-tools chooses: a TCTI configuration string — `taskTCTI` for the current task and the
/// tasks it starts (not detached ones), else `tcti` for the process, else the environment variable
/// `LATCHKEY_TPM_TCTI` (e.g. `swtpm:host=127.0.0.1,port=2321`) — else the kernel's resource manager `/dev/tpmrm0`
/// when this user may open it. `none` means no TPM: `SecureEnclave.isAvailable` is false and creating a key throws,
/// as on a simulator. A key keeps the TPM it was made or loaded with.
public enum LatchkeySecureEnclaveConfiguration {
    private static let processTCTI = Locked<String?>(nil)

    /// The TCTI for this process (nil: `LATCHKEY_TPM_TCTI`, else `/dev/tpmrm0`).
    public static var tcti: String? {
        get { processTCTI.withLock { $0 } }
        set { processTCTI.withLock { $0 = newValue } }
    }

    /// The TCTI for the current task and its child tasks, above `tcti` (tests run each against a TPM of its own).
    @TaskLocal public static var taskTCTI: String?

    /// The TPM the calling task would use.
    package static var selection: TPMSelection {
        if let named = taskTCTI ?? tcti { return .configured(named) }
        return .fromEnvironment()
    }

    /// The TPM in force and whether it answers: `(true, "swtpm:host=… (LATCHKEY_TPM_TCTI): TPM 2.0, manufacturer IBM…")`
    /// or `(false, reason)`. What `latchkey self-check` and `latchkey keychain status` print.
    public static func latchkeyTPMStatus() -> (inUse: Bool, description: String) {
        let selection = selection
        switch TPMEngine.probe(selection) {
        case let .success(text): return (true, "\(selection): \(text)")
        case let .failure(error):
            if case .none = selection.source { return (false, selection.description) }
            return (false, "\(selection): \(error.localizedDescription)")
        }
    }
}
