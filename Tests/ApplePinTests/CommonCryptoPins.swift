#if canImport(CommonCrypto)
import CommonCrypto
import Foundation

// Apple's C signatures of the CommonCrypto API the package calls or the Linux `CommonCrypto` module provides
// (CommonDigest.h, CommonHMAC.h, CommonKeyDerivation.h, CommonCryptoError.h; developer.apple.com/documentation/
// commoncrypto), pinned as in SecurityPins.swift. C pointers without nullability import as `T!`, written `T?` in a
// function type; `#define` integer constants import as `Int32`, the constants of an anonymous C `enum` as `Int`
// (so code writes `CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256)` and `status == Int32(kCCSuccess)`); `uint32_t`
// typedefs are `UInt32`. Everything here is older than the package's floor; CC_MD5 is deprecated (macOS 10.15,
// iOS 13).

/// Pins of CommonCrypto; `ApplePinTests` runs the functions that only read constants.
enum CommonCryptoPins {
    static func digests() {
        let _: CC_LONG.Type = UInt32.self
        let _: Int32 = CC_MD5_DIGEST_LENGTH
        let _: Int32 = CC_SHA1_DIGEST_LENGTH
        let _: Int32 = CC_SHA256_DIGEST_LENGTH
        let _: Int32 = CC_SHA384_DIGEST_LENGTH
        let _: Int32 = CC_SHA512_DIGEST_LENGTH
        let _: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? = CC_SHA1
        let _: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? = CC_SHA256
        let _: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? = CC_SHA384
        let _: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? = CC_SHA512
        let _ = { (data: Data) in
            var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
            data.withUnsafeBytes { _ = CC_SHA256($0.baseAddress, CC_LONG($0.count), &digest) }
            _ = digest
        }
    }

    static func hmac() {
        let _: CCHmacAlgorithm.Type = UInt32.self
        let _: Int = kCCHmacAlgSHA1
        let _: Int = kCCHmacAlgMD5
        let _: Int = kCCHmacAlgSHA256
        let _: Int = kCCHmacAlgSHA384
        let _: Int = kCCHmacAlgSHA512
        let _: Int = kCCHmacAlgSHA224
        let _: (CCHmacAlgorithm, UnsafeRawPointer?, Int, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = CCHmac
        let _ = { (key: [UInt8], message: [UInt8]) in
            var mac = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
            CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count, message, message.count, &mac)
            _ = mac
        }
    }

    static func keyDerivation() {
        let _: CCPBKDFAlgorithm.Type = UInt32.self
        let _: CCPseudoRandomAlgorithm.Type = UInt32.self
        let _: Int = kCCPBKDF2
        let _: Int = kCCPRFHmacAlgSHA1
        let _: Int = kCCPRFHmacAlgSHA224
        let _: Int = kCCPRFHmacAlgSHA256
        let _: Int = kCCPRFHmacAlgSHA384
        let _: Int = kCCPRFHmacAlgSHA512
        let _: (CCPBKDFAlgorithm, UnsafePointer<CChar>?, Int, UnsafePointer<UInt8>?, Int, CCPseudoRandomAlgorithm, UInt32,
                UnsafeMutablePointer<UInt8>?, Int) -> Int32 = CCKeyDerivationPBKDF
        let _ = { (password: String, salt: [UInt8]) in
            var key = [UInt8](repeating: 0, count: 32)
            let status = CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                              CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 600_000, &key, key.count)
            _ = (status == Int32(kCCSuccess), key)
        }
    }

    static func status() {
        let _: CCStatus.Type = Int32.self
        let _: CCCryptorStatus.Type = Int32.self
        let _: Int = kCCSuccess
        let _: Int = kCCParamError
        let _: Int = kCCBufferTooSmall
        let _: Int = kCCMemoryFailure
        let _: Int = kCCAlignmentError
        let _: Int = kCCDecodeError
        let _: Int = kCCUnimplemented
    }

    /// Deprecated API the Linux module still provides: pinned without warnings inside a deprecated function.
    @available(*, deprecated, message: "pins of deprecated API")
    static func deprecated() {
        let _: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? = CC_MD5
    }
}
#endif
