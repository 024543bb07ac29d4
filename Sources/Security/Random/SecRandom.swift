#if os(Linux)
import Foundation
import LatchkeyOpenSSL

/// `SecRandomRef`: the random number generator (only the default one exists).
public final class SecRandom: Sendable {
    init() {}
}

/// `kSecRandomDefault`.
public let kSecRandomDefault: SecRandom? = SecRandom()

/// `SecRandomCopyBytes`: fills `bytes` with `count` cryptographically secure random bytes (libsodium /
/// the OS generator, through LatchkeyCrypto). Returns errSecSuccess, or errSecParam for a bad buffer.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    guard count > 0 else { return errSecSuccess }
    SodiumRandom.fill(UnsafeMutableRawBufferPointer(start: bytes, count: count))
    return errSecSuccess
}
#endif
