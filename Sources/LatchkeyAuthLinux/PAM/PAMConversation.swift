#if os(Linux)
import CPAM
import Foundation
import LatchkeyAuthCore
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// Answers PAM's prompts for one `pam_authenticate` run, through the app's `PasscodeProvider`.
///
/// PAM runs on a thread of its own (never the cooperative pool), so the conversation callback may
/// block while the async provider answers.
final class PAMResponder: Sendable {
    private let provider: (any PasscodeProvider)?
    private let prompt: AuthenticationPrompt
    private let flags = Locked(PAMStatus.Conversation())
    private let notices = Locked(0)

    init(provider: (any PasscodeProvider)?, prompt: AuthenticationPrompt) {
        self.provider = provider
        self.prompt = prompt
    }

    var conversation: PAMStatus.Conversation { flags.withLock { $0 } }
    /// How many PAM_TEXT_INFO / PAM_ERROR_MSG messages arrived (their text is not logged).
    var noticeCount: Int { notices.withLock { $0 } }

    /// What the user typed for PAM's `message`, or nil (cancel / no provider).
    func answer(message: String?, echo: Bool) -> Passcode? {
        guard let provider else {
            flags.withLock { $0.noResponder = true }
            return nil
        }
        let request = prompt.withMessage(message, echo: echo)
        let box = AnswerBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.set(await provider.passcode(for: request))
            done.signal()
        }
        done.wait()
        guard let passcode = box.take() else {
            flags.withLock { $0.canceled = true }
            return nil
        }
        return passcode
    }

    func notice(_ text: String?, isError: Bool) {
        notices.withLock { $0 += 1 }
        if let text, !text.isEmpty { provider?.display(text, isError: isError) }
    }
}

private final class AnswerBox: Sendable {
    private let value = Locked<Passcode?>(nil)
    func set(_ passcode: Passcode?) { value.withLock { $0 = passcode } }
    func take() -> Passcode? { value.withLock { $0.take() } }
}

/// The C conversation callback. Responses are `calloc`/`malloc`ed because PAM frees them; text and
/// error messages get no response string, and when PAM passes no response pointer at all (pam_info /
/// pam_error, as pam_matrix's `verbose` does) nothing is written.
let latchkeyPAMConversation: @convention(c) (
    Int32, UnsafeMutablePointer<UnsafePointer<pam_message>?>?,
    UnsafeMutablePointer<UnsafeMutablePointer<pam_response>?>?, UnsafeMutableRawPointer?
) -> Int32 = { count, messages, responses, appdata in
    guard count > 0, count <= PAM_MAX_NUM_MSG, let messages, let appdata else { return PAM_CONV_ERR }
    let responder = Unmanaged<PAMResponder>.fromOpaque(appdata).takeUnretainedValue()
    let total = Int(count)
    // pam_info / pam_error (e.g. pam_matrix's `verbose`) pass a NULL response pointer: show the texts,
    // write nothing.
    guard let responses else {
        for index in 0..<total {
            guard let message = messages[index] else { return PAM_CONV_ERR }
            let style = message.pointee.msg_style
            guard style == PAM_TEXT_INFO || style == PAM_ERROR_MSG else { return PAM_CONV_ERR }
            responder.notice(message.pointee.msg.map { String(cString: $0) }, isError: style == PAM_ERROR_MSG)
        }
        return PAM_SUCCESS
    }
    guard let raw = calloc(total, MemoryLayout<pam_response>.stride) else { return PAM_BUF_ERR }
    let replies = raw.bindMemory(to: pam_response.self, capacity: total)

    func discard() {
        for index in 0..<total {
            if let text = replies[index].resp {
                memset(text, 0, strlen(text))
                free(text)
            }
        }
        free(raw)
    }

    for index in 0..<total {
        guard let message = messages[index] else {
            discard()
            return PAM_CONV_ERR
        }
        let style = message.pointee.msg_style
        let text = message.pointee.msg.map { String(cString: $0) }
        switch style {
        case PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON:
            guard let passcode = responder.answer(message: text, echo: style == PAM_PROMPT_ECHO_ON),
                  let copy = passcode.withBytes({ bytes -> UnsafeMutablePointer<CChar>? in
                      guard let buffer = malloc(bytes.count + 1)?.bindMemory(to: CChar.self, capacity: bytes.count + 1)
                      else { return nil }
                      for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
                      buffer[bytes.count] = 0
                      return buffer
                  })
            else {
                discard()
                return PAM_CONV_ERR
            }
            replies[index].resp = copy
            replies[index].resp_retcode = 0
        case PAM_TEXT_INFO, PAM_ERROR_MSG:
            responder.notice(text, isError: style == PAM_ERROR_MSG)
            replies[index].resp = nil
            replies[index].resp_retcode = 0
        default:
            discard()
            return PAM_CONV_ERR
        }
    }
    responses.pointee = replies
    return PAM_SUCCESS
}
#endif
