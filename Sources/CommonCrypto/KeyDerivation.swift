import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

// CommonCrypto's key derivation (CommonKeyDerivation.h) over OpenSSL: `CCKeyDerivationPBKDF` and its constants,
// with Apple's values and C signatures, so code written against CommonCrypto compiles unchanged on Linux.

/// `CCPBKDFAlgorithm`.
public typealias CCPBKDFAlgorithm = UInt32
/// `CCPseudoRandomAlgorithm`.
public typealias CCPseudoRandomAlgorithm = UInt32
/// `CCStatus` / `CCCryptorStatus`.
public typealias CCStatus = Int32
public typealias CCCryptorStatus = Int32

/// `kCCPBKDF2`.
public var kCCPBKDF2: Int { 2 }
/// `kCCPRFHmacAlgSHA1`, `…SHA224`, `…SHA256`, `…SHA384`, `…SHA512`.
public var kCCPRFHmacAlgSHA1: Int { 1 }
public var kCCPRFHmacAlgSHA224: Int { 2 }
public var kCCPRFHmacAlgSHA256: Int { 3 }
public var kCCPRFHmacAlgSHA384: Int { 4 }
public var kCCPRFHmacAlgSHA512: Int { 5 }

/// `kCCSuccess`, `kCCParamError`, `kCCBufferTooSmall`, `kCCMemoryFailure`, `kCCAlignmentError`, `kCCDecodeError`,
/// `kCCUnimplemented`.
public var kCCSuccess: Int { 0 }
public var kCCParamError: Int { -4300 }
public var kCCBufferTooSmall: Int { -4301 }
public var kCCMemoryFailure: Int { -4302 }
public var kCCAlignmentError: Int { -4303 }
public var kCCDecodeError: Int { -4304 }
public var kCCUnimplemented: Int { -4305 }

/// The OpenSSL digest of a `CCPseudoRandomAlgorithm`; nil for SHA-224 (not offered) and unknown values.
func digest(prf: CCPseudoRandomAlgorithm) -> OpenSSLDigest? {
    switch Int(prf) {
    case kCCPRFHmacAlgSHA1: .sha1
    case kCCPRFHmacAlgSHA256: .sha256
    case kCCPRFHmacAlgSHA384: .sha384
    case kCCPRFHmacAlgSHA512: .sha512
    default: nil
    }
}

/// `CCKeyDerivationPBKDF`: PBKDF2 (RFC 8018) with HMAC-`prf`, `rounds` iterations, into `derivedKey`. Returns
/// `kCCSuccess`, or `kCCParamError` for another algorithm, an unknown PRF (or SHA-224), zero rounds, or a missing
/// buffer.
@available(macOS 10.7, iOS 5.0, *)
public func CCKeyDerivationPBKDF(
    _ algorithm: CCPBKDFAlgorithm, _ password: UnsafePointer<CChar>!, _ passwordLen: Int,
    _ salt: UnsafePointer<UInt8>!, _ saltLen: Int, _ prf: CCPseudoRandomAlgorithm, _ rounds: UInt32,
    _ derivedKey: UnsafeMutablePointer<UInt8>!, _ derivedKeyLen: Int
) -> Int32 {
    guard Int(algorithm) == kCCPBKDF2, let md = digest(prf: prf), rounds >= 1, passwordLen >= 0, saltLen >= 0,
          derivedKeyLen >= 1, let derivedKey, password != nil || passwordLen == 0, salt != nil || saltLen == 0
    else { return Int32(kCCParamError) }
    let passwordBytes = UnsafeRawBufferPointer(start: password.map { UnsafeRawPointer($0) }, count: passwordLen)
    let saltBytes = UnsafeRawBufferPointer(start: salt.map { UnsafeRawPointer($0) }, count: saltLen)
    do throws(CryptoError) {
        let key = try PBKDF2Engine.deriveKey(password: passwordBytes, salt: saltBytes, iterations: Int(rounds),
                                             digest: md, outputByteCount: derivedKeyLen)
        UnsafeMutableRawPointer(derivedKey).copyMemory(from: key.bytes.baseAddress!, byteCount: derivedKeyLen)
        return Int32(kCCSuccess)
    } catch {
        return Int32(kCCParamError)
    }
}
