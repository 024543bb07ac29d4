import Foundation

/// ChaCha20-Poly1305 (IETF, RFC 8439) with a 32-byte key, 12-byte nonce and 16-byte tag, by OpenSSL EVP.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let box = try ChaChaPoly.seal(Data("secret".utf8), using: key, authenticating: Data("header".utf8))
/// let plain = try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: box.combined), using: key,
///                              authenticating: Data("header".utf8))
/// ```
public enum ChaChaPoly {
    /// A 12-byte ChaCha20-Poly1305 nonce. Never reuse a nonce with the same key: the default initializer is random.
    public struct Nonce: Sendable, Hashable {
        /// The nonce bytes (12).
        public let data: Data

        /// A random nonce (libsodium CSPRNG).
        public init() {
            data = SecureRandom.bytes(count: AEADEngine.nonceByteCount)
        }

        /// A nonce from exactly 12 bytes; other lengths throw `.invalidNonceSize`.
        public init(data: some DataProtocol) throws(CryptoError) {
            guard data.count == AEADEngine.nonceByteCount else {
                throw .invalidNonceSize(expected: AEADEngine.nonceByteCount, actual: data.count)
            }
            self.data = Data(data)
        }
    }

    /// Nonce, ciphertext and tag of one sealed message.
    public struct SealedBox: Sendable, Hashable {
        /// The nonce used to seal.
        public let nonce: Nonce
        /// The ciphertext (as long as the plaintext).
        public let ciphertext: Data
        /// The 16-byte authentication tag.
        public let tag: Data

        /// `nonce || ciphertext || tag`, the usual wire form.
        public var combined: Data {
            var out = Data(capacity: nonce.data.count + ciphertext.count + tag.count)
            out.append(nonce.data)
            out.append(ciphertext)
            out.append(tag)
            return out
        }

        /// Splits `nonce || ciphertext || tag`. Throws `.malformedInput` when shorter than 28 bytes.
        public init(combined: Data) throws(CryptoError) {
            let parts = try AEADBoxLayout.split(combined)
            try self.init(nonce: Nonce(data: parts.nonce), ciphertext: parts.ciphertext, tag: parts.tag)
        }

        /// Assembles a box from its parts. Throws `.malformedInput` unless `tag` is 16 bytes.
        public init(nonce: Nonce, ciphertext: Data, tag: Data) throws(CryptoError) {
            guard tag.count == AEADEngine.tagByteCount else {
                throw .malformedInput("AEAD tag must be \(AEADEngine.tagByteCount) bytes")
            }
            self.init(unchecked: nonce, ciphertext: ciphertext, tag: tag)
        }

        init(unchecked nonce: Nonce, ciphertext: Data, tag: Data) {
            self.nonce = nonce
            self.ciphertext = ciphertext
            self.tag = tag
        }
    }

    /// Encrypts and authenticates `plaintext` and authenticates `aad`.
    public static func seal(
        _ plaintext: some DataProtocol, using key: SymmetricKey, nonce: Nonce = Nonce(),
        authenticating aad: Data = Data()
    ) throws(CryptoError) -> SealedBox {
        let cipher = try cipher(for: key)
        let result = try key.withBytes { (keyBytes) throws(CryptoError) in
            try ContiguousInput.with(nonce.data) { (nonceBytes) throws(CryptoError) in
                try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
                    try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                        try AEADEngine.seal(cipher: cipher, name: "ChaCha20-Poly1305", key: keyBytes, nonce: nonceBytes,
                                            plaintext: input, aad: aadBytes)
                    }
                }
            }
        }
        return SealedBox(unchecked: nonce, ciphertext: result.ciphertext, tag: result.tag)
    }

    /// Authenticates and decrypts `box`. Any change to nonce, ciphertext, tag or `aad`, or a wrong key,
    /// throws `.authenticationFailure` and returns no plaintext.
    public static func open(
        _ box: SealedBox, using key: SymmetricKey, authenticating aad: Data = Data()
    ) throws(CryptoError) -> Data {
        let cipher = try cipher(for: key)
        return try key.withBytes { (keyBytes) throws(CryptoError) in
            try ContiguousInput.with(box.nonce.data) { (nonceBytes) throws(CryptoError) in
                try ContiguousInput.with(box.ciphertext) { (input) throws(CryptoError) in
                    try ContiguousInput.with(box.tag) { (tagBytes) throws(CryptoError) in
                        try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                            try AEADEngine.open(cipher: cipher, name: "ChaCha20-Poly1305", key: keyBytes, nonce: nonceBytes,
                                                ciphertext: input, tag: tagBytes, aad: aadBytes)
                        }
                    }
                }
            }
        }
    }

    private static func cipher(for key: SymmetricKey) throws(CryptoError) -> OpaquePointer? {
        guard key.byteCount == 32 else { throw .invalidKeySize(expected: 32, actual: key.byteCount) }
        return EVPHandles.chacha20Poly1305.pointer
    }
}
