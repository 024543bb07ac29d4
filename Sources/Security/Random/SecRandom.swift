#if os(Linux)
import Foundation
import LatchkeyOpenSSL

/// `SecRandomRef`: a random number generator, an opaque reference as on Apple platforms (only the default
/// generator exists).
public typealias SecRandomRef = OpaquePointer

/// `kSecRandomDefault`: the default generator. Apple's is a null reference imported as non-optional; this one is a
/// placeholder address that is never dereferenced (`SecRandomCopyBytes` takes any reference, or nil).
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef = OpaquePointer(bitPattern: 0x5ec)!

/// `SecRandomCopyBytes`: fills `bytes` with `count` cryptographically secure random bytes (libsodium /
/// the OS generator, through LatchkeyCrypto). Returns errSecSuccess, or errSecParam for a bad buffer.
@available(macOS 10.7, *)
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    guard count > 0 else { return errSecSuccess }
    SodiumRandom.fill(UnsafeMutableRawBufferPointer(start: bytes, count: count))
    return errSecSuccess
}
#endif
