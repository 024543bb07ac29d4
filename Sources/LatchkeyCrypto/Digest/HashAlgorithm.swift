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
        let md = evpMD
        let size = outputByteCount
        return ContiguousInput.with(data) { input in
            var out = Data(count: size)
            let ok = out.withUnsafeMutableBytes { outBuffer -> Int32 in
                EVP_Digest(input.baseAddress, input.count,
                           outBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, md, nil)
            }
            // EVP_Digest cannot fail for a fetched SHA-2 digest short of memory exhaustion.
            return ok == 1 ? out : Data()
        }
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
