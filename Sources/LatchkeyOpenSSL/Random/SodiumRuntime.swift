import LatchkeySupport
import CSodium

/// Initializes libsodium exactly once, thread-safely (a Swift global `let` is initialized under `swift_once`).
package enum SodiumRuntime {
    /// True when `sodium_init` succeeded (0) or had already run (1).
    package static let isReady: Bool = sodium_init() >= 0

    /// Call before any libsodium function that needs the library initialized.
    @inline(__always)
    package static func ensureInitialized() {
        _ = isReady
    }
}
