import Foundation

/// Hashes and checks passwords (PHC strings). The work runs off the caller's thread.
public protocol PasswordHasher: Sendable {
    /// A new PHC string for `password` with the current parameters.
    func hash(_ password: String) async throws -> String
    /// True when `password` matches `phc`. A malformed `phc` is false, never a crash.
    func verify(_ password: String, against phc: String) async -> Bool
    /// True when `phc` was made with weaker parameters than the current ones.
    func needsRehash(_ phc: String) -> Bool
}

/// A dedicated pool for CPU-heavy work (Argon2), as wide as the machine has cores, so that HTTP
/// threads and the cooperative pool are never blocked by hashing. Work is bridged with a continuation.
public final class HashingQueue: Sendable {
    private let queue: OperationQueue

    /// - Parameter width: concurrent hashes (default: active processor count).
    public init(width: Int = ProcessInfo.processInfo.activeProcessorCount, name: String = "latchkey.password-hashing") {
        let queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = max(1, width)
        queue.qualityOfService = .userInitiated
        self.queue = queue
    }

    /// Runs `work` on the pool and resumes the caller with its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.addOperation {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// The shared pool.
    public static let shared = HashingQueue()
}
