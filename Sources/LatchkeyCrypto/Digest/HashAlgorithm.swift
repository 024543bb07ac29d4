import COpenSSL
import Foundation

/// The SHA-2 hash functions LatchkeyCrypto offers (FIPS 180-4), by OpenSSL EVP.
public enum HashAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    case sha256
    case sha384
    case sha512

    /// Length of a digest in bytes (32, 48 or 64).
    public var outputByteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// Hashes `data` in one call.
    public func hash(_ data: some DataProtocol) -> Data {
        ContiguousInput.with(data) { digest($0) }
    }

    /// Hashes `data` in one call (fast path for `Data`).
    public func hash(_ data: Data) -> Data {
        data.withUnsafeBytes { digest($0) }
    }

    /// One EVP_Digest over a raw buffer. Returns an empty value only if OpenSSL fails (out of memory).
    func digest(_ input: UnsafeRawBufferPointer) -> Data {
        Self.digest(input, md: evpMD, count: outputByteCount)
    }

    /// One EVP_Digest with `md`, whose output is `count` bytes (also used by `LegacySHA1`).
    static func digest(_ input: UnsafeRawBufferPointer, md: OpaquePointer?, count: Int) -> Data {
        var ok = false
        let out = DataOutput.make(count: count) { out in
            ok = EVP_Digest(input.baseAddress, input.count, out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil,
                            md, nil) == 1
        }
        return ok ? out : Data()
    }

    /// The fetched OpenSSL digest.
    var evpMD: OpaquePointer? {
        switch self {
        case .sha256: EVPHandles.sha256.pointer
        case .sha384: EVPHandles.sha384.pointer
        case .sha512: EVPHandles.sha512.pointer
        }
    }

    /// The OpenSSL digest name, static for use in `OSSL_PARAM`.
    var openSSLName: UnsafeMutablePointer<CChar> {
        switch self {
        case .sha256: StaticCString.pointer("SHA2-256")
        case .sha384: StaticCString.pointer("SHA2-384")
        case .sha512: StaticCString.pointer("SHA2-512")
        }
    }
}
