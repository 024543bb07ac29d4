import COpenSSL
import Foundation
import LatchkeySupport

/// A digest OpenSSL computes: SHA-2 (`HashAlgorithm`), and SHA-1 and MD5 for CryptoKit's `Insecure` and the
/// legacy formats that still need them (TPM RS1 attestation).
package enum OpenSSLDigest: Int, Sendable, Hashable, CaseIterable {
    case sha256, sha384, sha512, sha1, md5

    /// The fetched `EVP_MD`.
    package var evpMD: OpaquePointer? {
        switch self {
        case .sha256: EVPHandles.sha256.pointer
        case .sha384: EVPHandles.sha384.pointer
        case .sha512: EVPHandles.sha512.pointer
        case .sha1: EVPHandles.sha1.pointer
        case .md5: EVPHandles.md5.pointer
        }
    }

    /// OpenSSL's name (for `OSSL_PARAM` "digest").
    package var openSSLName: UnsafeMutablePointer<CChar> {
        switch self {
        case .sha256: StaticCString.pointer("SHA2-256")
        case .sha384: StaticCString.pointer("SHA2-384")
        case .sha512: StaticCString.pointer("SHA2-512")
        case .sha1: StaticCString.pointer("SHA1")
        case .md5: StaticCString.pointer("MD5")
        }
    }

    /// Digest length in bytes.
    package var byteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        case .sha1: 20
        case .md5: 16
        }
    }

    /// One `EVP_Digest` of `input` into `out` (exactly `byteCount` bytes); false only when OpenSSL failed.
    package func hash(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        out.count == byteCount
            && EVP_Digest(ContiguousInput.pointer(input), input.count,
                          out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, evpMD, nil) == 1
    }

    /// One `EVP_Digest` of `input` as a new `Data` (empty only when OpenSSL failed).
    package func hash(_ input: UnsafeRawBufferPointer) -> Data {
        var ok = false
        let out = DataOutput.make(count: byteCount) { out in ok = hash(input, into: out) }
        return ok ? out : Data()
    }
}

extension HashAlgorithm {
    /// The OpenSSL digest of this algorithm.
    package var openSSL: OpenSSLDigest {
        switch self {
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// The fetched `EVP_MD`.
    package var evpMD: OpaquePointer? { openSSL.evpMD }
}
