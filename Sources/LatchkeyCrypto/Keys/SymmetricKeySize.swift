/// The size of a symmetric key in bits.
public struct SymmetricKeySize: Sendable, Hashable {
    /// The key length in bits.
    public let bitCount: Int

    /// A size of `bitCount` bits. Sizes that are not a multiple of 8 round up to whole bytes when a key is made.
    public init(bitCount: Int) {
        self.bitCount = bitCount
    }

    /// 128 bits (AES-128).
    public static let bits128 = SymmetricKeySize(bitCount: 128)
    /// 192 bits (AES-192).
    public static let bits192 = SymmetricKeySize(bitCount: 192)
    /// 256 bits (AES-256, ChaCha20-Poly1305, HMAC-SHA256 keys).
    public static let bits256 = SymmetricKeySize(bitCount: 256)
}
