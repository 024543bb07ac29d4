import Foundation

/// AES.
public enum AES {
    /// AES in Galois/Counter Mode (NIST SP 800-38D) with a 12-byte nonce and a 16-byte tag, by OpenSSL EVP.
    /// Keys of 256 bits are the norm; 128- and 192-bit keys are accepted too.
    ///
    /// ```swift
    /// let key = SymmetricKey(size: .bits256)
    /// let box = try AES.GCM.seal(Data("secret".utf8), using: key, authenticating: Data("header".utf8))
    /// let plain = try AES.GCM.open(AES.GCM.SealedBox(combined: box.combined), using: key,
    ///                              authenticating: Data("header".utf8))
    /// ```
    public enum GCM: AEADCipher {
        public static let parameters = AEADCipherParameters(name: "AES-GCM") { (bytes) throws(CryptoError) in
            switch bytes {
            case 32: EVPHandles.aes256GCM.pointer
            case 16: EVPHandles.aes128GCM.pointer
            case 24: EVPHandles.aes192GCM.pointer
            default: throw .invalidKeySize(expected: 32, actual: bytes)
            }
        }

        public typealias Nonce = AEAD.Nonce<GCM>
        public typealias SealedBox = AEAD.SealedBox<GCM>
    }
}
