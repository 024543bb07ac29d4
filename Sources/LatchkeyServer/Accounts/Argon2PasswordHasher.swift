import Foundation
import LatchkeyCrypto

/// Argon2id password hashing (libsodium through LatchkeyCrypto), OWASP parameters by default
/// (19 MiB, 2 passes, 1 lane). Every hash and verification runs on a `HashingQueue`, never on an HTTP
/// thread or the cooperative pool.
public struct Argon2PasswordHasher: PasswordHasher {
    public let parameters: Argon2id.Parameters
    private let queue: HashingQueue

    public init(parameters: Argon2id.Parameters = .owasp, queue: HashingQueue = .shared) {
        self.parameters = parameters
        self.queue = queue
    }

    public func hash(_ password: String) async throws -> String {
        let parameters = parameters
        return try await queue.run { try Argon2id.hash(password: Data(password.utf8), parameters: parameters) }
    }

    public func verify(_ password: String, against phc: String) async -> Bool {
        (try? await queue.run { try Argon2id.verify(password: Data(password.utf8), against: phc) }) ?? false
    }

    public func needsRehash(_ phc: String) -> Bool {
        Argon2id.needsRehash(phc, parameters: parameters)
    }
}
