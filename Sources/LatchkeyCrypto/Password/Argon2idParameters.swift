import CSodium

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
        public static let maximumMemoryKiB = 1 << 20
        /// Largest pass count accepted anywhere.
        public static let maximumIterations = 64
        /// Largest lane count accepted when verifying a PHC string.
        public static let maximumParallelism = 255
        /// Smallest memory cost (libsodium's minimum, 8 KiB).
        public static var minimumMemoryKiB: Int { Int(crypto_pwhash_argon2id_memlimit_min()) / 1024 }
        /// Smallest pass count (libsodium's minimum for Argon2id, 1).
        public static var minimumIterations: Int { Int(crypto_pwhash_argon2id_opslimit_min()) }

        /// Throws `.invalidParameter` unless libsodium can compute these parameters within the bounds above.
        func validateForComputing() throws(CryptoError) {
            guard parallelism == 1 else {
                throw .invalidParameter("Argon2id parallelism must be 1 (libsodium computes a single lane)")
            }
            try validateBounds()
        }

        /// Range checks shared by computing and parsing.
        func validateBounds() throws(CryptoError) {
            guard memoryKiB >= Self.minimumMemoryKiB, memoryKiB <= Self.maximumMemoryKiB else {
                throw .invalidParameter(
                    "Argon2id memory must be \(Self.minimumMemoryKiB)...\(Self.maximumMemoryKiB) KiB")
            }
            guard iterations >= Self.minimumIterations, iterations <= Self.maximumIterations else {
                throw .invalidParameter("Argon2id iterations must be \(Self.minimumIterations)...\(Self.maximumIterations)")
            }
            guard parallelism >= 1, parallelism <= Self.maximumParallelism, memoryKiB >= 8 * parallelism else {
                throw .invalidParameter("Argon2id parallelism must be 1...\(Self.maximumParallelism) with m ≥ 8·p")
            }
        }

        var opsLimit: UInt64 { UInt64(iterations) }
        var memLimit: Int { memoryKiB * 1024 }
    }
}
