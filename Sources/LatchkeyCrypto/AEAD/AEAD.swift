import Foundation

/// An AEAD construction LatchkeyCrypto seals with: the type parameter of `AEAD.Nonce` and `AEAD.SealedBox`.
/// `AES.GCM` and `ChaChaPoly` are the ciphers.
public protocol AEADCipher: Sendable {
    /// OpenSSL's cipher for a key, and the name used in errors.
    static var parameters: AEADCipherParameters { get }
}

/// The details behind an `AEADCipher` (opaque outside LatchkeyCrypto).
public struct AEADCipherParameters: Sendable {
    let name: StaticString
    let cipher: @Sendable (_ keyByteCount: Int) throws(CryptoError) -> OpaquePointer?
}

/// Nonces, sealed boxes, seal and open shared by every AEAD cipher (12-byte nonce, 16-byte tag). Use them
/// through CryptoKit's names: `AES.GCM.Nonce`, `ChaChaPoly.SealedBox`, `AES.GCM.seal(...)`.
public enum AEAD {
    /// A 12-byte AEAD nonce. Never reuse a nonce with the same key: the default initializer is random.
    public struct Nonce<Cipher: AEADCipher>: Sendable, Hashable {
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
    public struct SealedBox<Cipher: AEADCipher>: Sendable, Hashable {
        /// The nonce used to seal.
        public let nonce: Nonce<Cipher>
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
        public init(nonce: Nonce<Cipher>, ciphertext: Data, tag: Data) throws(CryptoError) {
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
        init(nonce: Nonce<Cipher>, uncheckedCombined combined: Data) {
            self.nonce = nonce
            self.combined = combined
        }

        /// `combined` has at least `AEADEngine.overhead` bytes.
        init(unchecked combined: Data) {
            let start = combined.startIndex
            nonce = Nonce<Cipher>(unchecked: Data(combined[start..<(start + AEADEngine.nonceByteCount)]))
            self.combined = combined
        }
    }

    /// Encrypts and authenticates `input` and authenticates `aad` under `Cipher`.
    static func seal<Cipher: AEADCipher>(
        _ input: UnsafeRawBufferPointer, using key: SymmetricKey, nonce: Nonce<Cipher>, authenticating aad: Data
    ) throws(CryptoError) -> SealedBox<Cipher> {
        let parameters = Cipher.parameters
        let cipher = try parameters.cipher(key.byteCount)
        let combined = try key.withBytes { (keyBytes) throws(CryptoError) in
            try ContiguousInput.with(nonce.data) { (nonceBytes) throws(CryptoError) in
                try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                    try AEADEngine.seal(cipher: cipher, name: parameters.name, key: keyBytes, nonce: nonceBytes,
                                        plaintext: input, aad: aadBytes)
                }
            }
        }
        return SealedBox(nonce: nonce, uncheckedCombined: combined)
    }

    /// Authenticates and decrypts `box`: any change, or a wrong key, throws `.authenticationFailure`.
    static func open<Cipher: AEADCipher>(
        _ box: SealedBox<Cipher>, using key: SymmetricKey, authenticating aad: Data
    ) throws(CryptoError) -> Data {
        let parameters = Cipher.parameters
        let cipher = try parameters.cipher(key.byteCount)
        return try key.withBytes { (keyBytes) throws(CryptoError) in
            try ContiguousInput.with(box.combined) { (combined) throws(CryptoError) in
                try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                    try AEADEngine.open(cipher: cipher, name: parameters.name, key: keyBytes, combined: combined,
                                        aad: aadBytes)
                }
            }
        }
    }
}

/// CryptoKit's entry points on every cipher: `AES.GCM.seal(...)`, `ChaChaPoly.open(...)`.
extension AEADCipher {
    /// Encrypts and authenticates `plaintext` and authenticates `aad`.
    public static func seal(
        _ plaintext: some DataProtocol, using key: SymmetricKey, nonce: AEAD.Nonce<Self> = AEAD.Nonce<Self>(),
        authenticating aad: Data = Data()
    ) throws(CryptoError) -> AEAD.SealedBox<Self> {
        try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
            try AEAD.seal(input, using: key, nonce: nonce, authenticating: aad)
        }
    }

    /// Encrypts and authenticates `plaintext` and authenticates `aad` (fast path for `Data`).
    public static func seal(
        _ plaintext: Data, using key: SymmetricKey, nonce: AEAD.Nonce<Self> = AEAD.Nonce<Self>(),
        authenticating aad: Data = Data()
    ) throws(CryptoError) -> AEAD.SealedBox<Self> {
        try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
            try AEAD.seal(input, using: key, nonce: nonce, authenticating: aad)
        }
    }

    /// Authenticates and decrypts `box`. Any change to nonce, ciphertext, tag or `aad`, or a wrong key,
    /// throws `.authenticationFailure` and returns no plaintext.
    public static func open(
        _ box: AEAD.SealedBox<Self>, using key: SymmetricKey, authenticating aad: Data = Data()
    ) throws(CryptoError) -> Data {
        try AEAD.open(box, using: key, authenticating: aad)
    }
}
