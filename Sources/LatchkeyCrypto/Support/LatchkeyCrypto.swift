@_exported import LatchkeySupport

/// LatchkeyCrypto: typed Swift wrappers over OpenSSL 3 and libsodium, plus JOSE (JWS, JWK, JWT) and CBOR/COSE.
/// Nothing in this module implements a cryptographic primitive itself.
public enum LatchkeyCryptoInfo {
    public static let version = "0.1.0"
}
