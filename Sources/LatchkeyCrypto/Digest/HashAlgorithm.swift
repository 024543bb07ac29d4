import Foundation

extension HashAlgorithm {
    /// The digest of `data` with this algorithm (CryptoKit's `SHA256`, `SHA384`, `SHA512`).
    public func hash(_ data: some DataProtocol) -> Data {
        switch self {
        case .sha256: Data(SHA256.hash(data: data))
        case .sha384: Data(SHA384.hash(data: data))
        case .sha512: Data(SHA512.hash(data: data))
        }
    }

    /// The HMAC of `data` under `key` with this algorithm (CryptoKit's `HMAC`).
    public func authenticationCode(for data: some DataProtocol, using key: SymmetricKey) -> Data {
        switch self {
        case .sha256: Data(HMAC<SHA256>.authenticationCode(for: data, using: key))
        case .sha384: Data(HMAC<SHA384>.authenticationCode(for: data, using: key))
        case .sha512: Data(HMAC<SHA512>.authenticationCode(for: data, using: key))
        }
    }
}
