#if os(Linux)
import Foundation
import LatchkeyOpenSSL

/// `SecKeyAlgorithm`, with Apple's raw strings (Security's SecKey.m). What each one does on Linux is
/// `SecKeyAlgorithm.operation`; SHA-224, MD5 and the ECIES and cofactor algorithms are named but not implemented
/// (`SecKeyIsAlgorithmSupported` answers false, the operations fail with errSecUnimplemented).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public struct SecKeyAlgorithm: RawRepresentable, Hashable, Sendable {
    private let name: String
    /// The algorithm's Core Foundation string.
    public var rawValue: CFString { name as NSString }
    public init(rawValue: CFString) { name = rawValue as String }
    init(_ s: String) { name = s }

    public static let rsaSignatureRaw = SecKeyAlgorithm("algid:sign:RSA:raw")
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15")
    public static let rsaSignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA1")
    public static let rsaSignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA224")
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA256")
    public static let rsaSignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA384")
    public static let rsaSignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA512")
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA1")
    public static let rsaSignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA224")
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA256")
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA384")
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA512")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureDigestPSSSHA1 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA1:SHA1:20")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureDigestPSSSHA224 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA224:SHA224:24")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA256:SHA256:32")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureDigestPSSSHA384 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA384:SHA384:48")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureDigestPSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA512:SHA512:64")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureMessagePSSSHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA1:SHA1:20")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureMessagePSSSHA224 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA224:SHA224:24")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA256:SHA256:32")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA384:SHA384:48")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA512:SHA512:64")
    @available(macOS, introduced: 10.12, deprecated: 14.0)
    @available(iOS, introduced: 10.0, deprecated: 17.0)
    @available(tvOS, introduced: 10.0, deprecated: 17.0)
    @available(watchOS, introduced: 3.0, deprecated: 10.0)
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:RFC4754")
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962")
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA1")
    public static let ecdsaSignatureDigestX962SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA224")
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA256")
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA384")
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA512")
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA1")
    public static let ecdsaSignatureMessageX962SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA224")
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA256")
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA384")
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA512")
    public static let rsaEncryptionRaw = SecKeyAlgorithm("algid:encrypt:RSA:raw")
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm("algid:encrypt:RSA:PKCS1")
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA1")
    public static let rsaEncryptionOAEPSHA224 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA224")
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA256")
    public static let rsaEncryptionOAEPSHA384 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA384")
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA512")
    public static let eciesEncryptionStandardX963SHA256AESGCM =
        SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM")
    public static let eciesEncryptionCofactorX963SHA256AESGCM =
        SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM =
        SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV")
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM =
        SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm("algid:keyexchange:ECDH")
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA1")
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA256")
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA384")
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA512")
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm("algid:keyexchange:ECDHC")

    /// What the algorithm does, as the Linux implementation understands it; nil when it is not implemented.
    var operation: SecKeyAlgorithmOperation? {
        let parts = name.split(separator: ":").map(String.init)
        func digest(_ name: String) -> OpenSSLDigest? {
            ["SHA1": .sha1, "SHA256": .sha256, "SHA384": .sha384, "SHA512": .sha512][name]
        }
        switch Array(parts.prefix(3)) {
        case ["algid", "sign", "ECDSA"] where parts.count == 5:
            guard let hash = digest(parts[4]) else { return nil }
            return parts[3] == "message-X962" ? .ecdsa(hash, message: true) : parts[3] == "digest-X962"
                ? .ecdsa(hash, message: false) : nil
        case ["algid", "sign", "RSA"] where parts.count >= 5:
            guard let hash = digest(parts[4]) else { return nil }
            switch parts[3] {
            case "message-PKCS1v15": return .rsaSignature(.pkcs1v15, hash, message: true)
            case "digest-PKCS1v15": return .rsaSignature(.pkcs1v15, hash, message: false)
            case "message-PSS": return .rsaSignature(.pss, hash, message: true)
            case "digest-PSS": return .rsaSignature(.pss, hash, message: false)
            default: return nil
            }
        case ["algid", "encrypt", "RSA"]:
            if parts.count == 4, parts[3] == "PKCS1" { return .rsaEncryption(.pkcs1) }
            if parts.count == 5, parts[3] == "OAEP", let hash = digest(parts[4]) { return .rsaEncryption(.oaep(hash)) }
            return nil
        case ["algid", "keyexchange", "ECDH"]:
            if parts.count == 3 { return .ecdh(kdf: nil) }
            if parts.count == 5, parts[3] == "KDFX963", let hash = digest(parts[4]) { return .ecdh(kdf: hash) }
            return nil
        default:
            return nil
        }
    }
}

/// An implemented `SecKeyAlgorithm`.
enum SecKeyAlgorithmOperation {
    /// ECDSA with a DER (X9.62) signature over a message hashed with the digest, or over a precomputed digest.
    case ecdsa(OpenSSLDigest, message: Bool)
    /// RSA signatures.
    case rsaSignature(RSAKey.Padding, OpenSSLDigest, message: Bool)
    /// RSA encryption.
    case rsaEncryption(RSAKey.EncryptionPadding)
    /// ECDH: the raw shared secret, or one derived from it with the ANSI X9.63 KDF.
    case ecdh(kdf: OpenSSLDigest?)
}

/// `SecKeyKeyExchangeParameter`: the keys of `SecKeyCopyKeyExchangeResult`'s parameters dictionary, with Apple's raw
/// strings (Security's SecKeyAdaptors.m). Apple's Swift spells the C constants (a CF_STRING_ENUM in SecKey.h)
/// `SecKeyKeyExchangeParameter.requestedSize` and `.sharedInfo`:
/// `[SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 32] as CFDictionary`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public struct SecKeyKeyExchangeParameter: RawRepresentable, Hashable, Sendable {
    private let name: String
    /// The parameter's Core Foundation string.
    public var rawValue: CFString { name as NSString }
    public init(rawValue: CFString) { name = rawValue as String }

    /// The number of bytes to derive (the X9.63 KDF algorithms require it).
    public static let requestedSize = SecKeyKeyExchangeParameter(rawValue: kSecKeyKeyExchangeParameterRequestedSize)
    /// The shared info of the X9.63 KDF (optional).
    public static let sharedInfo = SecKeyKeyExchangeParameter(rawValue: kSecKeyKeyExchangeParameterSharedInfo)
}

/// `kSecKeyKeyExchangeParameterRequestedSize`, as C code spells it (Linux only: see `SecKeyKeyExchangeParameter`).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterRequestedSize: CFString = "requestedSize" as NSString
/// `kSecKeyKeyExchangeParameterSharedInfo`, as C code spells it (Linux only: see `SecKeyKeyExchangeParameter`).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterSharedInfo: CFString = "sharedInfo" as NSString
#endif
