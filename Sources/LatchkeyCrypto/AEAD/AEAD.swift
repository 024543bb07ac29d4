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
        /// `nonce || ciphertext || tag`, the usual wire form (no copy is made to return it).
        public let combined: Data

        /// The nonce used to seal (the first 12 bytes of `combined`).
        public var nonce: Nonce<Cipher> {
            let start = combined.startIndex
            return Nonce<Cipher>(unchecked: Data(combined[start..<(start + AEADEngine.nonceByteCount)]))
        }

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
            self.combined = combined
        }

        /// `combined` has at least `AEADEngine.overhead` bytes (for example it was just sealed).
        @usableFromInline
        init(unchecked combined: Data) {
            self.combined = combined
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
        let combined = try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
            try AEADEngine.seal(input, key: key, nonce: nonce.data, aad: aad, parameters: parameters)
        }
        return AEAD.SealedBox(unchecked: combined)
    }

    // The `Data` forms are inlinable so that callers specialize them for their cipher: no generic
    // metadata lookups per call, straight into the non-generic `AEADEngine`.

    /// Encrypts and authenticates `plaintext` and authenticates `aad` (fast path for `Data`).
    @inlinable
    public static func seal(
        _ plaintext: Data, using key: SymmetricKey, nonce: AEAD.Nonce<Self> = AEAD.Nonce<Self>(),
        authenticating aad: Data = Data()
    ) throws(CryptoError) -> AEAD.SealedBox<Self> {
        AEAD.SealedBox(unchecked: try AEADEngine.seal(plaintext, key: key, nonce: nonce.data, aad: aad,
                                                       parameters: parameters))
    }

    /// Authenticates and decrypts `box`. Any change to nonce, ciphertext, tag or `aad`, or a wrong key,
    /// throws `.authenticationFailure` and returns no plaintext.
    @inlinable
    public static func open(
        _ box: AEAD.SealedBox<Self>, using key: SymmetricKey, authenticating aad: Data = Data()
    ) throws(CryptoError) -> Data {
        try AEADEngine.open(box.combined, key: key, aad: aad, parameters: parameters)
    }

    /// Encrypts and authenticates `plaintext` and authenticates `aad`, read from the caller's own buffer.
    @inlinable
    public static func seal(
        _ plaintext: Data, using key: SymmetricKey, nonce: AEAD.Nonce<Self> = AEAD.Nonce<Self>(),
        authenticatingBytes aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> AEAD.SealedBox<Self> {
        AEAD.SealedBox(unchecked: try AEADEngine.seal(plaintext, key: key, nonce: nonce.data, aad: aad,
                                                       parameters: parameters))
    }

    /// Authenticates and decrypts a `nonce || ciphertext || tag` buffer held by the caller (no copy is made of
    /// it or of `aad`). Fails as `open(_:using:authenticating:)` does, also with `.malformedInput` when the
    /// buffer is shorter than a nonce and a tag.
    @inlinable
    public static func open(
        combinedBytes combined: UnsafeRawBufferPointer, using key: SymmetricKey, authenticatingBytes aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        try AEADEngine.open(combined, key: key, aad: aad, parameters: parameters)
    }
}
