/// How an application password becomes the key of an `.applicationPassword` item. The function and its costs are
/// stored with each sealed value, so a value opens with the costs it was sealed with.
///
/// Argon2id (libsodium) on Linux; PBKDF2-HMAC-SHA256 (CommonCrypto) where Apple's frameworks are used — Apple ships
/// no Argon2. Linux opens values of either function; Apple platforms open PBKDF2 values only.
public struct ApplicationPasswordKDF: Sendable, Hashable {
    /// The derivation function and its costs.
    public enum Function: Sendable, Hashable {
        /// Argon2id with `memoryKiB` of memory and `iterations` passes (parallelism 1). Linux only.
        case argon2id(memoryKiB: Int, iterations: Int)
        /// PBKDF2 with HMAC-SHA256 and `iterations` rounds.
        case pbkdf2SHA256(iterations: Int)
    }

    /// The function new values are sealed with.
    public var function: Function

    /// Costs of `function`.
    public init(_ function: Function) { self.function = function }

    /// Argon2id costs (Linux).
    public init(memoryKiB: Int, iterations: Int) { self.init(.argon2id(memoryKiB: memoryKiB, iterations: iterations)) }

    /// The default, paid on every read of such an item: OWASP's minimum for Argon2id (19 MiB, 2 passes) on Linux;
    /// OWASP's 600,000 rounds of PBKDF2-HMAC-SHA256 where Apple's frameworks are used.
    public static var `default`: ApplicationPasswordKDF {
        #if LATCHKEY_APPLE_FRAMEWORKS
        ApplicationPasswordKDF(.pbkdf2SHA256(iterations: 600_000))
        #else
        ApplicationPasswordKDF(.argon2id(memoryKiB: 19456, iterations: 2))
        #endif
    }

    /// The smallest costs, for tests only.
    public static var testing: ApplicationPasswordKDF {
        #if LATCHKEY_APPLE_FRAMEWORKS
        ApplicationPasswordKDF(.pbkdf2SHA256(iterations: 1))
        #else
        ApplicationPasswordKDF(.argon2id(memoryKiB: 8, iterations: 1))
        #endif
    }
}
