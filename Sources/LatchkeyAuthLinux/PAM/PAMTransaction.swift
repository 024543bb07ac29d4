#if os(Linux)
import CPAM
import Foundation
import LatchkeyAuthCore

/// One PAM transaction (`pam_start[_confdir]` → `pam_authenticate` → `pam_acct_mgmt` → `pam_end`),
/// run on a dedicated thread so the blocking conversation never stalls the cooperative pool.
enum PAMTransaction {
    struct Outcome: Sendable {
        var code: Int32
        var conversation: PAMStatus.Conversation
        var notices: Int
    }

    static func run(service: String, user: String, configurationDirectory: String?,
                    responder: PAMResponder) async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let thread = Thread {
                let code = runBlocking(service: service, user: user, configurationDirectory: configurationDirectory,
                                       responder: responder)
                continuation.resume(returning: Outcome(code: code, conversation: responder.conversation,
                                                       notices: responder.noticeCount))
            }
            thread.name = "latchkey.pam"
            thread.start()
        }
    }

    private static func runBlocking(service: String, user: String, configurationDirectory: String?,
                                    responder: PAMResponder) -> Int32 {
        let retained = Unmanaged.passRetained(responder)
        defer { retained.release() }
        var conversation = pam_conv(conv: latchkeyPAMConversation, appdata_ptr: retained.toOpaque())
        var handle: OpaquePointer?
        let started: Int32
        if let configurationDirectory {
            started = pam_start_confdir(service, user, &conversation, configurationDirectory, &handle)
        } else {
            started = pam_start(service, user, &conversation, &handle)
        }
        guard started == PAM_SUCCESS, let handle else { return started == PAM_SUCCESS ? PAM_SYSTEM_ERR : started }
        var status = pam_authenticate(handle, 0)
        if status == PAM_SUCCESS { status = pam_acct_mgmt(handle, 0) }
        pam_end(handle, status)
        return status
    }
}
#endif
