#if !LATCHKEY_APPLE_FRAMEWORKS
import LatchkeyOpenSSL

extension Argon2id {
    /// Argon2id cost parameters: memory in KiB, passes over memory, and lanes.
    ///
    /// libsodium computes one lane, so hashing and key derivation accept `parallelism == 1` only;
    /// verification of a stored PHC string also accepts strings with more lanes.
    public struct Parameters: Sendable, Hashable, Codable {
        /// Memory cost in KiB (`m`).
        public var memoryKiB: Int
        /// Number of passes (`t`).
        public var iterations: Int
        /// Number of lanes (`p`).
        public var parallelism: Int

        /// Parameters as given; they are checked when used.
        public init(memoryKiB: Int, iterations: Int, parallelism: Int = 1) {
            self.memoryKiB = memoryKiB
            self.iterations = iterations
            self.parallelism = parallelism
        }

        /// OWASP Password Storage Cheat Sheet minimum: 19 MiB, t = 2, p = 1.
        public static let owasp = Parameters(memoryKiB: 19456, iterations: 2, parallelism: 1)
        /// libsodium's "moderate" level: 64 MiB, t = 3, p = 1 (about 0.1 s here).
        public static let moderate = Parameters(memoryKiB: 65536, iterations: 3, parallelism: 1)

        /// Largest memory cost accepted anywhere (1 GiB), so a stored string cannot make us allocate without bound.
        public static var maximumMemoryKiB: Int { Argon2idEngine.maximumMemoryKiB }
        /// Largest pass count accepted anywhere.
        public static var maximumIterations: Int { Argon2idEngine.maximumIterations }
        /// Largest lane count accepted when verifying a PHC string.
        public static var maximumParallelism: Int { Argon2idEngine.maximumParallelism }
        /// Smallest memory cost (libsodium's minimum, 8 KiB).
        public static var minimumMemoryKiB: Int { Argon2idEngine.minimumMemoryKiB }
        /// Smallest pass count (libsodium's minimum for Argon2id, 1).
        public static var minimumIterations: Int { Argon2idEngine.minimumIterations }

        /// Throws `.invalidParameter` unless libsodium can compute these parameters within the bounds above.
        func validateForComputing() throws(CryptoError) {
            try Argon2idEngine.validateForComputing(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
        }

        /// Range checks shared by computing and parsing.
        func validateBounds() throws(CryptoError) {
            try Argon2idEngine.validateBounds(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
        }
    }
}
#endif
