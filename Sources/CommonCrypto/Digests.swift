import Foundation
import LatchkeyOpenSSL

// CommonCrypto's one-shot digests and HMAC (CommonDigest.h, CommonHMAC.h) over OpenSSL, with Apple's C signatures:
// the calls most code written against CommonCrypto makes.

/// `CC_LONG`.
public typealias CC_LONG = UInt32

/// Digest lengths: `CC_MD5_DIGEST_LENGTH`, `CC_SHA1_…`, `CC_SHA256_…`, `CC_SHA384_…`, `CC_SHA512_…`.
public var CC_MD5_DIGEST_LENGTH: Int32 { 16 }
public var CC_SHA1_DIGEST_LENGTH: Int32 { 20 }
public var CC_SHA256_DIGEST_LENGTH: Int32 { 32 }
public var CC_SHA384_DIGEST_LENGTH: Int32 { 48 }
public var CC_SHA512_DIGEST_LENGTH: Int32 { 64 }

private func oneShot(_ digest: OpenSSLDigest, _ data: UnsafeRawPointer?, _ len: CC_LONG,
                     _ md: UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? {
    guard let md else { return nil }
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : Int(len))
    let output = UnsafeMutableRawBufferPointer(start: md, count: digest.byteCount)
    return digest.hash(input, into: output) ? md : nil
}

/// `CC_SHA256`: the SHA-256 of `len` bytes at `data`, written to `md` (32 bytes), which is returned.
@available(macOS 10.4, *)
@discardableResult
public func CC_SHA256(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    oneShot(.sha256, data, len, md)
}

/// `CC_SHA384`.
@available(macOS 10.4, *)
@discardableResult
public func CC_SHA384(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    oneShot(.sha384, data, len, md)
}

/// `CC_SHA512`.
@available(macOS 10.4, *)
@discardableResult
public func CC_SHA512(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    oneShot(.sha512, data, len, md)
}

/// `CC_SHA1` (legacy formats only).
@discardableResult
public func CC_SHA1(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    oneShot(.sha1, data, len, md)
}

/// `CC_MD5` (legacy formats only).
@available(macOS, introduced: 10.4, deprecated: 10.15)
@available(iOS, deprecated: 13.0)
@available(tvOS, deprecated: 13.0)
@available(watchOS, deprecated: 6.0)
@discardableResult
public func CC_MD5(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    oneShot(.md5, data, len, md)
}

/// `CCHmacAlgorithm`.
public typealias CCHmacAlgorithm = UInt32
/// `kCCHmacAlgSHA1`, `kCCHmacAlgMD5`, `kCCHmacAlgSHA256`, `kCCHmacAlgSHA384`, `kCCHmacAlgSHA512`, `kCCHmacAlgSHA224`.
public var kCCHmacAlgSHA1: Int { 0 }
public var kCCHmacAlgMD5: Int { 1 }
public var kCCHmacAlgSHA256: Int { 2 }
public var kCCHmacAlgSHA384: Int { 3 }
public var kCCHmacAlgSHA512: Int { 4 }
public var kCCHmacAlgSHA224: Int { 5 }

/// `CCHmac`: the HMAC of `dataLength` bytes under `keyLength` key bytes, written to `macOut` (the digest's length).
/// SHA-224 and unknown algorithms write nothing.
@available(macOS 10.4, *)
public func CCHmac(_ algorithm: CCHmacAlgorithm, _ key: UnsafeRawPointer!, _ keyLength: Int, _ data: UnsafeRawPointer!,
                   _ dataLength: Int, _ macOut: UnsafeMutableRawPointer!) {
    let digest: OpenSSLDigest
    switch Int(algorithm) {
    case kCCHmacAlgSHA1: digest = .sha1
    case kCCHmacAlgMD5: digest = .md5
    case kCCHmacAlgSHA256: digest = .sha256
    case kCCHmacAlgSHA384: digest = .sha384
    case kCCHmacAlgSHA512: digest = .sha512
    default: return
    }
    guard let macOut else { return }
    let keyBytes = SecretBytes(copying: UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keyLength))
    _ = HMACEngine.compute(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : dataLength), key: keyBytes,
                           digest: digest, into: UnsafeMutableRawBufferPointer(start: macOut, count: digest.byteCount))
}
