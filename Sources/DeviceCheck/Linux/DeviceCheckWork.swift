#if os(Linux)
import CryptoKit
import Dispatch
import Foundation

/// A DeviceCheck call's work, with the configuration in force where the call was made (its task's): run on a global
/// dispatch queue, never on the cooperative pool, since it waits for the TPM and the disk.
struct DeviceCheckWork: Sendable {
    let configuration: LatchkeyDeviceCheckConfiguration
    let tcti: String?

    /// The configuration of the calling task.
    static func here() -> DeviceCheckWork {
        DeviceCheckWork(configuration: .current, tcti: LatchkeySecureEnclaveConfiguration.taskTCTI)
    }

    /// Runs `body` on the device of the captured configuration, synchronously, on the calling thread.
    func run<T>(_ body: (AppAttestDevice) throws(DCError) -> T) -> Result<T, DCError> {
        LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tcti) {
            do throws(DCError) {
                return .success(try body(AppAttestDevice(configuration: configuration)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs `body` on a global queue and hands its result to `completion` there (Apple calls completion handlers on a
    /// queue of its own).
    func complete<T: Sendable>(_ body: @escaping @Sendable (AppAttestDevice) throws(DCError) -> T,
                               _ completion: CompletionHandler<T>) {
        DispatchQueue.global().async {
            switch run(body) {
            case let .success(value): completion.call(value, nil)
            case let .failure(error): completion.call(nil, error)
            }
        }
    }

    /// Runs `body` on a global queue and returns its result to the awaiting task.
    func perform<T: Sendable>(_ body: @escaping @Sendable (AppAttestDevice) throws(DCError) -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: run(body)) }
        }
    }
}

/// An app's completion handler, called once on another thread as Apple's are. Apple's headers do not mark the blocks
/// `@Sendable`, so app code may pass closures that are not; they are only called, once, after the work.
struct CompletionHandler<T>: @unchecked Sendable {
    private let handler: (T?, (any Error)?) -> Void
    init(_ handler: @escaping (T?, (any Error)?) -> Void) { self.handler = handler }
    func call(_ value: T?, _ error: (any Error)?) { handler(value, error) }
}
#endif
