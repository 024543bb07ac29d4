@_exported import CryptoKit
@_exported import LatchkeySupport

/// LatchkeyCrypto: CryptoKit — Apple's framework on Apple platforms, the package's OpenSSL/libsodium `CryptoKit`
/// module on Linux, re-exported, so a file importing both sees one `SHA256` — plus what CryptoKit lacks: JOSE (JWS,
/// JWK, JWT), CBOR and COSE, X.509, RSA signatures, PBKDF2, Argon2id (Linux), random bytes and constant-time
/// comparison. Each of those has two backends chosen at compile time (`Backend/`): Security and CommonCrypto where
/// Apple's frameworks are used, OpenSSL and libsodium on Linux. Nothing in this module implements a cryptographic
/// primitive itself.
public enum LatchkeyCryptoInfo {
    public static let version = "0.1.0"
}
