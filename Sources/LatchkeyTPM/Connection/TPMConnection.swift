import CTSS2
import Foundation

/// One ESAPI context over one TCTI connection, open for one engine operation and closed after it: nothing stays
/// loaded in the TPM between operations (a TPM without a resource manager, such as swtpm, has three object slots
/// shared by every client), and no connection outlives the process's use of it. Not thread-safe: `TPMEngine`
/// serializes its use.
final class TPMConnection {
    /// The `ESYS_CONTEXT *`.
    let context: OpaquePointer
    /// The TCTI configuration it was opened with.
    let configuration: String
    private var tcti: OpaquePointer?
    private var transients: [ESYS_TR] = []

    init(tcti configuration: String) throws(TPMError) {
        var tcti: OpaquePointer?
        let opened = Tss2_TctiLdr_Initialize(configuration, &tcti)
        guard opened == 0, let tcti else {
            throw .unavailable(reason: "cannot open the TCTI \"\(configuration)\": \(TPMConnection.text(opened))")
        }
        var context: OpaquePointer?
        let initialized = Esys_Initialize(&context, tcti, nil)
        guard initialized == 0, let context else {
            var loaded: OpaquePointer? = tcti
            Tss2_TctiLdr_Finalize(&loaded)
            throw .unavailable(reason: "ESAPI could not start on \"\(configuration)\": \(TPMConnection.text(initialized))")
        }
        self.context = context
        self.tcti = tcti
        self.configuration = configuration
    }

    deinit {
        for handle in transients.reversed() { _ = Esys_FlushContext(context, handle) }
        var esys: OpaquePointer? = context
        Esys_Finalize(&esys)
        Tss2_TctiLdr_Finalize(&tcti)
    }

    /// Remembers a transient object to flush when the connection closes (or earlier, with `flush`).
    func track(_ handle: ESYS_TR) { transients.append(handle) }

    /// Flushes a tracked transient object now.
    func flush(_ handle: ESYS_TR) {
        guard let index = transients.lastIndex(of: handle) else { return }
        transients.remove(at: index)
        _ = Esys_FlushContext(context, handle)
    }

    /// tpm2-tss's text for a response code.
    static func text(_ code: TSS2_RC) -> String {
        guard let text = Tss2_RC_Decode(code) else { return "response code \(code)" }
        return String(cString: text)
    }
}
