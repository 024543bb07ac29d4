import Foundation
import LatchkeySupport

/// The harness's dice: SplitMix64, so that a seed replays a run (not cryptography).
package struct PowercutRandom: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A seed derived from `seed` for item `index` (trials, threads).
    package static func derive(_ seed: UInt64, _ index: Int) -> UInt64 {
        var r = PowercutRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xd6e8_feb8_6659_fd93))
        return r.next()
    }

    /// Random bytes (test values, not secrets).
    package mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A random lowercase hexadecimal string of `count` bytes.
    package mutating func hex(_ count: Int) -> String {
        Data(bytes(count)).hexString
    }
}
