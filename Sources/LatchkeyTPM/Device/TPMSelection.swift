import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// Which TPM 2.0 the engine talks to, chosen as tpm2-tools chooses: a TCTI configuration string
/// (`swtpm:host=127.0.0.1,port=2321`, `device:/dev/tpmrm0`, `mssim:…`, `tabrmd`), else the kernel's resource manager
/// `/dev/tpmrm0` when this process may open it, else none.
package struct TPMSelection: Sendable, Hashable, CustomStringConvertible {
    /// Where the choice came from.
    package enum Source: Sendable, Hashable {
        /// `LATCHKEY_TPM_TCTI` (or a configuration that set it).
        case configured
        /// `/dev/tpmrm0`, found readable and writable.
        case kernelResourceManager
        /// Nothing: `LATCHKEY_TPM_TCTI=none`, or no `/dev/tpmrm0` this process may open.
        case none(reason: String)
    }

    /// The environment variable naming the TCTI, as `TPM2TOOLS_TCTI` does for tpm2-tools. `none` means no TPM.
    package static let environmentVariable = "LATCHKEY_TPM_TCTI"
    /// The kernel's TPM resource manager, the default when it can be opened.
    package static let kernelResourceManager = "/dev/tpmrm0"

    /// The TCTI configuration handed to tpm2-tss's loader; nil when there is no TPM.
    package let tcti: String?
    /// Where it came from.
    package let source: Source

    package init(tcti: String?, source: Source) {
        self.tcti = tcti
        self.source = source
    }

    /// A TCTI given by configuration (`none` or an empty string: no TPM).
    package static func configured(_ tcti: String) -> TPMSelection {
        let trimmed = tcti.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "none" {
            return TPMSelection(tcti: nil, source: .none(reason: "\(environmentVariable)=none"))
        }
        return TPMSelection(tcti: trimmed, source: .configured)
    }

    /// The choice for `environment`: `LATCHKEY_TPM_TCTI`, else `/dev/tpmrm0` when it can be opened for reading and
    /// writing, else none.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TPMSelection {
        if let named = environment[environmentVariable] { return configured(named) }
        #if canImport(Glibc)
        if access(kernelResourceManager, R_OK | W_OK) == 0 {
            return TPMSelection(tcti: "device:\(kernelResourceManager)", source: .kernelResourceManager)
        }
        let reason = FileManager.default.fileExists(atPath: kernelResourceManager)
            ? "\(kernelResourceManager) is not readable and writable by this user"
            : "no \(environmentVariable) and no \(kernelResourceManager)"
        return TPMSelection(tcti: nil, source: .none(reason: reason))
        #else
        return TPMSelection(tcti: nil, source: .none(reason: "no TPM access on this platform"))
        #endif
    }

    /// `swtpm:host=… (LATCHKEY_TPM_TCTI)`, `device:/dev/tpmrm0 (the kernel resource manager)` or `none (reason)`.
    package var description: String {
        switch source {
        case .configured: "\(tcti ?? "none") (\(Self.environmentVariable))"
        case .kernelResourceManager: "\(tcti ?? "none") (the kernel resource manager)"
        case let .none(reason): "none (\(reason))"
        }
    }
}
