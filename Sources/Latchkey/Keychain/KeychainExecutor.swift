import Dispatch
import LatchkeyKeychain

/// Runs blocking store calls on a dedicated dispatch queue, off Swift's cooperative thread pool, so async
/// callers (and their actors) never wait on file or D-Bus I/O.
enum KeychainExecutor {
    private static let queue = DispatchQueue(label: "org.latchkey.keychain", qos: .userInitiated,
                                             attributes: .concurrent)
    private static let marker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        return key
    }()

    /// True when the current code runs on the keychain's queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws(KeychainStoreError) -> T)
        async throws(KeychainStoreError) -> T {
        _ = marker
        let result: Result<T, KeychainStoreError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(KeychainStoreError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
