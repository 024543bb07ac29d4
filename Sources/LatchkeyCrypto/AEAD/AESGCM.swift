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
    public enum GCM {
        /// A 12-byte GCM nonce. Never reuse a nonce with the same key: the default initializer is random.
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

            /// `data` is exactly 12 bytes.
            init(unchecked data: Data) {
                self.data = data
            }
        }

        /// Nonce, ciphertext and tag of one sealed message, held as one `nonce || ciphertext || tag` buffer.
        public struct SealedBox: Sendable, Hashable {
            /// The nonce used to seal.
            public let nonce: Nonce
            /// `nonce || ciphertext || tag`, the usual wire form (no copy is made to return it).
            public let combined: Data

            /// The ciphertext (as long as the plaintext).
            public var ciphertext: Data {
                let start = combined.startIndex + AEADEngine.nonceByteCount
                return Data(combined[start..<(combined.endIndex - AEADEngine.tagByteCount)])
            }

            /// The 16-byte authentication tag.
            public var tag: Data { Data(combined.suffix(AEADEngine.tagByteCount)) }

            /// Wraps `nonce || ciphertext || tag`. Throws `.malformedInput` when shorter than 28 bytes.
            public init(combined: Data) throws(CryptoError) {
                guard combined.count >= AEADEngine.overhead else {
                    throw .malformedInput("sealed box shorter than \(AEADEngine.overhead) bytes")
                }
                self.init(unchecked: combined)
            }

            /// Assembles a box from its parts. Throws `.malformedInput` unless `tag` is 16 bytes.
            public init(nonce: Nonce, ciphertext: Data, tag: Data) throws(CryptoError) {
                guard tag.count == AEADEngine.tagByteCount else {
                    throw .malformedInput("AEAD tag must be \(AEADEngine.tagByteCount) bytes")
                }
                var combined = Data(capacity: AEADEngine.overhead + ciphertext.count)
                combined.append(nonce.data)
                combined.append(ciphertext)
                combined.append(tag)
                self.nonce = nonce
                self.combined = combined
            }

            /// `combined` was just sealed with `nonce`.
            init(nonce: Nonce, uncheckedCombined combined: Data) {
                self.nonce = nonce
                self.combined = combined
            }

            /// `combined` has at least `AEADEngine.overhead` bytes.
            init(unchecked combined: Data) {
                let start = combined.startIndex
                nonce = Nonce(unchecked: Data(combined[start..<(start + AEADEngine.nonceByteCount)]))
                self.combined = combined
            }
        }

        /// Encrypts and authenticates `plaintext` and authenticates `aad`.
        public static func seal(
            _ plaintext: some DataProtocol, using key: SymmetricKey, nonce: Nonce = Nonce(),
            authenticating aad: Data = Data()
        ) throws(CryptoError) -> SealedBox {
            try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
                try seal(input, using: key, nonce: nonce, authenticating: aad)
            }
        }

        /// Encrypts and authenticates `plaintext` and authenticates `aad` (fast path for `Data`).
        public static func seal(
            _ plaintext: Data, using key: SymmetricKey, nonce: Nonce = Nonce(), authenticating aad: Data = Data()
        ) throws(CryptoError) -> SealedBox {
            try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
                try seal(input, using: key, nonce: nonce, authenticating: aad)
            }
        }

        private static func seal(
            _ input: UnsafeRawBufferPointer, using key: SymmetricKey, nonce: Nonce, authenticating aad: Data
        ) throws(CryptoError) -> SealedBox {
            let cipher = try cipher(for: key)
            let combined = try key.withBytes { (keyBytes) throws(CryptoError) in
                try ContiguousInput.with(nonce.data) { (nonceBytes) throws(CryptoError) in
                    try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                        try AEADEngine.seal(cipher: cipher, name: "AES-GCM", key: keyBytes, nonce: nonceBytes,
                                            plaintext: input, aad: aadBytes)
                    }
                }
            }
            return SealedBox(nonce: nonce, uncheckedCombined: combined)
        }

        /// Authenticates and decrypts `box`. Any change to nonce, ciphertext, tag or `aad`, or a wrong key,
        /// throws `.authenticationFailure` and returns no plaintext.
        public static func open(
            _ box: SealedBox, using key: SymmetricKey, authenticating aad: Data = Data()
        ) throws(CryptoError) -> Data {
            let cipher = try cipher(for: key)
            return try key.withBytes { (keyBytes) throws(CryptoError) in
                try ContiguousInput.with(box.combined) { (combined) throws(CryptoError) in
                    try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                        try AEADEngine.open(cipher: cipher, name: "AES-GCM", key: keyBytes, combined: combined,
                                            aad: aadBytes)
                    }
                }
            }
        }

        private static func cipher(for key: SymmetricKey) throws(CryptoError) -> OpaquePointer? {
            switch key.byteCount {
            case 32: EVPHandles.aes256GCM.pointer
            case 16: EVPHandles.aes128GCM.pointer
            case 24: EVPHandles.aes192GCM.pointer
            default: throw .invalidKeySize(expected: 32, actual: key.byteCount)
            }
        }
    }
}
