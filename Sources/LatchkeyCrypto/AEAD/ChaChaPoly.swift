import Foundation

/// ChaCha20-Poly1305 (IETF, RFC 8439) with a 32-byte key, 12-byte nonce and 16-byte tag, by OpenSSL EVP.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let box = try ChaChaPoly.seal(Data("secret".utf8), using: key, authenticating: Data("header".utf8))
/// let plain = try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: box.combined), using: key,
///                              authenticating: Data("header".utf8))
/// ```
public enum ChaChaPoly: AEADCipher {
    public static let parameters = AEADCipherParameters(name: "ChaCha20-Poly1305") { (bytes) throws(CryptoError) in
        guard bytes == 32 else { throw .invalidKeySize(expected: 32, actual: bytes) }
        return EVPHandles.chacha20Poly1305.pointer
    }

    public typealias Nonce = AEAD.Nonce<ChaChaPoly>
    public typealias SealedBox = AEAD.SealedBox<ChaChaPoly>
}
