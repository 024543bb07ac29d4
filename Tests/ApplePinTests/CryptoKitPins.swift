#if canImport(CryptoKit)
import CryptoKit
import Foundation

// Apple's documented CryptoKit API that the package uses or that a Linux `CryptoKit` module must provide
// (developer.apple.com/documentation/cryptokit; swift-crypto mirrors the same declarations), pinned as in
// SecurityPins.swift: the specification the Linux `CryptoKit` module is written against, compiled against it on Linux
// and against Apple's CryptoKit as it is. Everything here is available at the package's floor (macOS 14, iOS 17):
// HKDF, the PEM/DER representations and CryptoKitASN1Error (iOS 14), AES key wrap (iOS 15), compressed
// representations (iOS 16) and DiffieHellmanKeyAgreement (iOS 17) included; `CryptoKitError`'s Equatable/Hashable
// (iOS 17.4, macOS 14.4) only under `#available`. Errors are untyped `throws`. And everything is declared by the
// oldest SDK the package admits (iOS 18.0, Xcode 16.0): its CryptoKit declares the keys, digests, MACs and
// `SymmetricKey` without `Sendable` (the iOS 18.4 SDK adds it), so no pin requires it — the Sendable facts are in
// docs/apple-sdk/CryptoKit.tsv, checked against the Linux module by scripts/check-apple-facts.py — and
// `hash(bufferPointer:)`, `@inlinable internal` in Apple's module, is not pinned.
// A protocol's requirements are pinned through a generic parameter constrained to it (`H.hash(data:)`); an instance
// method through a closure's typed parameter (`{ (hasher: H) in hasher.finalize }` for `HashFunction.finalize`: the
// unapplied `H.finalize` would capture `H`'s metatype, not Sendable where the protocol is not, as in the iOS 18.0
// SDK); `mutating` methods, which cannot be referenced as function values, by a call on a value of the stated type
// (`{ (hasher: inout SHA256, ...) in hasher.update(bufferPointer: ...) }`).

/// Pins of CryptoKit (compiled, not run).
enum CryptoKitPins {
    static func hashing() {
        func hashFunction<H: HashFunction>(_: H.Type) {
            let _: () -> H = H.init
            let _: Int = H.blockByteCount
            let _: Int = H.Digest.byteCount
            let _: (Data) -> H.Digest = H.hash(data:)
            let _: (H) -> () -> H.Digest = { (hasher: H) in hasher.finalize }
            let _ = { (hasher: inout H, buffer: UnsafeRawBufferPointer, data: Data) in
                hasher.update(bufferPointer: buffer)
                hasher.update(data: data)
            }
        }
        func digest<D: Digest>(_ value: D) {
            let _: Int = D.byteCount
            let _: Data = Data(value)
            let _: [UInt8] = Array(value)
            let _: Int = value.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in bytes.count }
            let _: String = value.description
            let _: Bool = value == value
            let _: Bool = value == Data()
            let _: (D) -> () -> Array<UInt8>.Iterator = { (digest: D) in digest.makeIterator }
            let _: KeyPath<D, Int> = \D.underestimatedCount
            let _: (D) -> ((UnsafeBufferPointer<UInt8>) throws -> Int) throws -> Int? =
                { (digest: D) in digest.withContiguousStorageIfAvailable(_:) }
            pinHashable(D.self)
            pinContiguousBytes(D.self)
        }
        hashFunction(SHA256.self)
        hashFunction(SHA384.self)
        hashFunction(SHA512.self)
        hashFunction(Insecure.SHA1.self)
        hashFunction(Insecure.MD5.self)
        let _: SHA256.Digest.Type = SHA256Digest.self
        let _: SHA384.Digest.Type = SHA384Digest.self
        let _: SHA512.Digest.Type = SHA512Digest.self
        let _: Insecure.SHA1.Digest.Type = Insecure.SHA1Digest.self
        let _: Insecure.MD5.Digest.Type = Insecure.MD5Digest.self
        let _: Int = SHA256.byteCount
        let _: Int = SHA384.byteCount
        let _: Int = SHA512.byteCount
        let _: Int = Insecure.SHA1.byteCount
        let _: Int = Insecure.MD5.byteCount
        let _: (Data) -> SHA256.Digest = SHA256.hash(data:)
        let _: (Data) -> SHA384.Digest = SHA384.hash(data:)
        let _: (Data) -> SHA512.Digest = SHA512.hash(data:)
        let _: (Data) -> Insecure.SHA1.Digest = Insecure.SHA1.hash(data:)
        let _: (Data) -> Insecure.MD5.Digest = Insecure.MD5.hash(data:)
        // Each hash function's and digest's own members (the protocols' requirements are pinned above).
        let _: Int = SHA256.blockByteCount
        let _: () -> SHA256 = SHA256.init
        let _: (SHA256) -> () -> SHA256Digest = SHA256.finalize
        let _ = { (hasher: inout SHA256, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
        let _: Int = SHA256Digest.byteCount
        let _: (SHA256Digest) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            SHA256Digest.withUnsafeBytes(_:)
        let _: Int = SHA384.blockByteCount
        let _: () -> SHA384 = SHA384.init
        let _: (SHA384) -> () -> SHA384Digest = SHA384.finalize
        let _ = { (hasher: inout SHA384, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
        let _: Int = SHA384Digest.byteCount
        let _: (SHA384Digest) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            SHA384Digest.withUnsafeBytes(_:)
        let _: Int = SHA512.blockByteCount
        let _: () -> SHA512 = SHA512.init
        let _: (SHA512) -> () -> SHA512Digest = SHA512.finalize
        let _ = { (hasher: inout SHA512, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
        let _: Int = SHA512Digest.byteCount
        let _: (SHA512Digest) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            SHA512Digest.withUnsafeBytes(_:)
        let _: Int = Insecure.SHA1.blockByteCount
        let _: () -> Insecure.SHA1 = Insecure.SHA1.init
        let _: (Insecure.SHA1) -> () -> Insecure.SHA1Digest = Insecure.SHA1.finalize
        let _ = { (hasher: inout Insecure.SHA1, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
        let _: Int = Insecure.SHA1Digest.byteCount
        let _: (Insecure.SHA1Digest) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            Insecure.SHA1Digest.withUnsafeBytes(_:)
        let _: Int = Insecure.MD5.blockByteCount
        let _: () -> Insecure.MD5 = Insecure.MD5.init
        let _: (Insecure.MD5) -> () -> Insecure.MD5Digest = Insecure.MD5.finalize
        let _ = { (hasher: inout Insecure.MD5, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
        let _: Int = Insecure.MD5Digest.byteCount
        let _: (Insecure.MD5Digest) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            Insecure.MD5Digest.withUnsafeBytes(_:)
        digest(SHA256.hash(data: Data()))
        digest(SHA384.hash(data: Data()))
        digest(SHA512.hash(data: Data()))
        digest(Insecure.SHA1.hash(data: Data()))
        digest(Insecure.MD5.hash(data: Data()))
    }

    static func keysAndMACs() {
        let _: (SymmetricKeySize) -> SymmetricKey = SymmetricKey.init(size:)
        let _: (Data) -> SymmetricKey = SymmetricKey.init(data:)
        let _: KeyPath<SymmetricKey, Int> = \SymmetricKey.bitCount
        let _: (SymmetricKey) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            SymmetricKey.withUnsafeBytes(_:)
        pinContiguousBytes(SymmetricKey.self)
        pinEquatable(SymmetricKey.self)
        let _: SymmetricKeySize = SymmetricKeySize.bits128
        let _: SymmetricKeySize = SymmetricKeySize.bits192
        let _: SymmetricKeySize = SymmetricKeySize.bits256
        let _: (Int) -> SymmetricKeySize = SymmetricKeySize.init(bitCount:)
        let _: KeyPath<SymmetricKeySize, Int> = \SymmetricKeySize.bitCount

        func mac<M: MessageAuthenticationCode>(_ value: M) {
            let _: Int = value.byteCount
            let _: KeyPath<M, Int> = \M.byteCount
            let _: (M) -> () -> Array<UInt8>.Iterator = { (code: M) in code.makeIterator }
            let _: (M) -> ((UnsafeBufferPointer<UInt8>) throws -> Int) throws -> Int? =
                { (code: M) in code.withContiguousStorageIfAvailable(_:) }
            let _: Data = Data(value)
            let _: Int = value.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in bytes.count }
            let _: String = value.description
            let _: Bool = value == value
            let _: Bool = value == Data()
            pinHashable(M.self)
        }
        let _: HMAC<SHA256>.Key.Type = SymmetricKey.self
        let _: HMAC<SHA256>.MAC.Type = HashedAuthenticationCode<SHA256>.self
        let _: (SymmetricKey) -> HMAC<SHA256> = HMAC<SHA256>.init(key:)
        let _: (Data, SymmetricKey) -> HashedAuthenticationCode<SHA256> = HMAC<SHA256>.authenticationCode(for:using:)
        let _: (HashedAuthenticationCode<SHA256>, Data, SymmetricKey) -> Bool =
            HMAC<SHA256>.isValidAuthenticationCode(_:authenticating:using:)
        let _: (Data, Data, SymmetricKey) -> Bool = HMAC<SHA256>.isValidAuthenticationCode(_:authenticating:using:)
        let _: (HashedAuthenticationCode<SHA256>, UnsafeRawBufferPointer, SymmetricKey) -> Bool =
            HMAC<SHA256>.isValidAuthenticationCode(_:authenticating:using:)
        let _: (HMAC<SHA256>) -> () -> HashedAuthenticationCode<SHA256> = HMAC<SHA256>.finalize
        let _: KeyPath<HashedAuthenticationCode<SHA256>, Int> = \HashedAuthenticationCode<SHA256>.byteCount
        let _: (HashedAuthenticationCode<SHA256>) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            HashedAuthenticationCode<SHA256>.withUnsafeBytes(_:)
        let _: (Data, SymmetricKey) -> HashedAuthenticationCode<SHA384> = HMAC<SHA384>.authenticationCode(for:using:)
        let _: (Data, SymmetricKey) -> HashedAuthenticationCode<SHA512> = HMAC<SHA512>.authenticationCode(for:using:)
        let _: (Data, SymmetricKey) -> HashedAuthenticationCode<Insecure.SHA1> =
            HMAC<Insecure.SHA1>.authenticationCode(for:using:)
        var hmac: HMAC<SHA256> = HMAC(key: SymmetricKey(size: .bits256))
        hmac.update(data: Data())
        mac(hmac.finalize())

        let _: (SymmetricKey, Data, Data, Int) -> SymmetricKey = HKDF<SHA256>.deriveKey(inputKeyMaterial:salt:info:outputByteCount:)
        let _: (SymmetricKey, Data, Int) -> SymmetricKey = HKDF<SHA256>.deriveKey(inputKeyMaterial:info:outputByteCount:)
        let _: (SymmetricKey, Data, Int) -> SymmetricKey = HKDF<SHA256>.deriveKey(inputKeyMaterial:salt:outputByteCount:)
        let _: (SymmetricKey, Int) -> SymmetricKey = HKDF<SHA256>.deriveKey(inputKeyMaterial:outputByteCount:)
        let _: (SymmetricKey, Data?) -> HashedAuthenticationCode<SHA256> = HKDF<SHA256>.extract(inputKeyMaterial:salt:)
        let _: (HashedAuthenticationCode<SHA256>, Data?, Int) -> SymmetricKey =
            HKDF<SHA256>.expand(pseudoRandomKey:info:outputByteCount:)
        let _: (SymmetricKey, Data, Data, Int) -> SymmetricKey = HKDF<SHA384>.deriveKey(inputKeyMaterial:salt:info:outputByteCount:)
        let _: (SymmetricKey, Data, Data, Int) -> SymmetricKey = HKDF<SHA512>.deriveKey(inputKeyMaterial:salt:info:outputByteCount:)

        let _: (SharedSecret) -> (SHA256.Type, Data, Data, Int) -> SymmetricKey =
            SharedSecret.hkdfDerivedSymmetricKey(using:salt:sharedInfo:outputByteCount:)
        let _: (SharedSecret) -> (SHA256.Type, Data, Int) -> SymmetricKey =
            SharedSecret.x963DerivedSymmetricKey(using:sharedInfo:outputByteCount:)
        let _: (SharedSecret) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            SharedSecret.withUnsafeBytes(_:)
        pinContiguousBytes(SharedSecret.self)
        pinEquatable(SharedSecret.self)
        let _ = { (secret: SharedSecret) in
            let key = secret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: Data(), outputByteCount: 32)
            _ = (key, secret.description)
        }
    }

    static func ciphers() {
        let _: (Data, SymmetricKey, AES.GCM.Nonce?, Data) throws -> AES.GCM.SealedBox = AES.GCM.seal(_:using:nonce:authenticating:)
        let _: (Data, SymmetricKey, AES.GCM.Nonce?) throws -> AES.GCM.SealedBox = AES.GCM.seal(_:using:nonce:)
        let _: (AES.GCM.SealedBox, SymmetricKey, Data) throws -> Data = AES.GCM.open(_:using:authenticating:)
        let _: (AES.GCM.SealedBox, SymmetricKey) throws -> Data = AES.GCM.open(_:using:)
        let _: (Data) throws -> AES.GCM.SealedBox = AES.GCM.SealedBox.init(combined:)
        let _: (AES.GCM.Nonce, Data, Data) throws -> AES.GCM.SealedBox = AES.GCM.SealedBox.init(nonce:ciphertext:tag:)
        let _: KeyPath<AES.GCM.SealedBox, Data?> = \AES.GCM.SealedBox.combined
        let _: KeyPath<AES.GCM.SealedBox, Data> = \AES.GCM.SealedBox.ciphertext
        let _: KeyPath<AES.GCM.SealedBox, Data> = \AES.GCM.SealedBox.tag
        let _: KeyPath<AES.GCM.SealedBox, AES.GCM.Nonce> = \AES.GCM.SealedBox.nonce
        let _: () -> AES.GCM.Nonce = AES.GCM.Nonce.init
        let _: (Data) throws -> AES.GCM.Nonce = AES.GCM.Nonce.init(data:)
        let _: (AES.GCM.Nonce) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            AES.GCM.Nonce.withUnsafeBytes(_:)
        let _: (AES.GCM.Nonce) -> () -> Array<UInt8>.Iterator = AES.GCM.Nonce.makeIterator
        pinContiguousBytes(AES.GCM.Nonce.self)
        let _: [UInt8] = Array(AES.GCM.Nonce())

        let _: (Data, SymmetricKey, ChaChaPoly.Nonce?, Data) throws -> ChaChaPoly.SealedBox = ChaChaPoly.seal(_:using:nonce:authenticating:)
        let _: (Data, SymmetricKey, ChaChaPoly.Nonce?) throws -> ChaChaPoly.SealedBox = ChaChaPoly.seal(_:using:nonce:)
        let _: (ChaChaPoly.SealedBox, SymmetricKey, Data) throws -> Data = ChaChaPoly.open(_:using:authenticating:)
        let _: (ChaChaPoly.SealedBox, SymmetricKey) throws -> Data = ChaChaPoly.open(_:using:)
        let _: (Data) throws -> ChaChaPoly.SealedBox = ChaChaPoly.SealedBox.init(combined:)
        let _: (ChaChaPoly.Nonce, Data, Data) throws -> ChaChaPoly.SealedBox = ChaChaPoly.SealedBox.init(nonce:ciphertext:tag:)
        let _: KeyPath<ChaChaPoly.SealedBox, Data> = \ChaChaPoly.SealedBox.combined
        let _: KeyPath<ChaChaPoly.SealedBox, Data> = \ChaChaPoly.SealedBox.ciphertext
        let _: KeyPath<ChaChaPoly.SealedBox, Data> = \ChaChaPoly.SealedBox.tag
        let _: KeyPath<ChaChaPoly.SealedBox, ChaChaPoly.Nonce> = \ChaChaPoly.SealedBox.nonce
        let _: () -> ChaChaPoly.Nonce = ChaChaPoly.Nonce.init
        let _: (Data) throws -> ChaChaPoly.Nonce = ChaChaPoly.Nonce.init(data:)
        let _: (ChaChaPoly.Nonce) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            ChaChaPoly.Nonce.withUnsafeBytes(_:)
        let _: (ChaChaPoly.Nonce) -> () -> Array<UInt8>.Iterator = ChaChaPoly.Nonce.makeIterator
        pinContiguousBytes(ChaChaPoly.Nonce.self)
        let _: [UInt8] = Array(ChaChaPoly.Nonce())

        let _: (SymmetricKey, SymmetricKey) throws -> Data = AES.KeyWrap.wrap(_:using:)
        let _: (Data, SymmetricKey) throws -> SymmetricKey = AES.KeyWrap.unwrap(_:using:)

        let _ = { () throws in
            let key = SymmetricKey(size: .bits256)
            let box = try AES.GCM.seal(Data("secret".utf8), using: key, authenticating: Data("aad".utf8))
            let opened: Data = try AES.GCM.open(box, using: key, authenticating: Data("aad".utf8))
            let sealed = try ChaChaPoly.seal(Data("secret".utf8), using: key)
            let wrapped = try AES.KeyWrap.wrap(SymmetricKey(size: .bits128), using: key)
            _ = (opened, box.combined, sealed.combined, try AES.KeyWrap.unwrap(wrapped, using: key))
        }
    }

    static func p256() {
        let _: (Bool) -> P256.Signing.PrivateKey = P256.Signing.PrivateKey.init(compactRepresentable:)
        let _: (Data) throws -> P256.Signing.PrivateKey = P256.Signing.PrivateKey.init(rawRepresentation:)
        let _: (Data) throws -> P256.Signing.PrivateKey = P256.Signing.PrivateKey.init(x963Representation:)
        let _: (Data) throws -> P256.Signing.PrivateKey = P256.Signing.PrivateKey.init(derRepresentation:)
        let _: (String) throws -> P256.Signing.PrivateKey = P256.Signing.PrivateKey.init(pemRepresentation:)
        let _: KeyPath<P256.Signing.PrivateKey, P256.Signing.PublicKey> = \P256.Signing.PrivateKey.publicKey
        let _: KeyPath<P256.Signing.PrivateKey, Data> = \P256.Signing.PrivateKey.rawRepresentation
        let _: KeyPath<P256.Signing.PrivateKey, Data> = \P256.Signing.PrivateKey.x963Representation
        let _: KeyPath<P256.Signing.PrivateKey, Data> = \P256.Signing.PrivateKey.derRepresentation
        let _: KeyPath<P256.Signing.PrivateKey, String> = \P256.Signing.PrivateKey.pemRepresentation
        let _: (Data) throws -> P256.Signing.PublicKey = P256.Signing.PublicKey.init(rawRepresentation:)
        let _: (Data) throws -> P256.Signing.PublicKey = P256.Signing.PublicKey.init(compactRepresentation:)
        let _: (Data) throws -> P256.Signing.PublicKey = P256.Signing.PublicKey.init(x963Representation:)
        let _: (Data) throws -> P256.Signing.PublicKey = P256.Signing.PublicKey.init(compressedRepresentation:)
        let _: (Data) throws -> P256.Signing.PublicKey = P256.Signing.PublicKey.init(derRepresentation:)
        let _: (String) throws -> P256.Signing.PublicKey = P256.Signing.PublicKey.init(pemRepresentation:)
        let _: KeyPath<P256.Signing.PublicKey, Data> = \P256.Signing.PublicKey.rawRepresentation
        let _: KeyPath<P256.Signing.PublicKey, Data?> = \P256.Signing.PublicKey.compactRepresentation
        let _: KeyPath<P256.Signing.PublicKey, Data> = \P256.Signing.PublicKey.x963Representation
        let _: KeyPath<P256.Signing.PublicKey, Data> = \P256.Signing.PublicKey.compressedRepresentation
        let _: KeyPath<P256.Signing.PublicKey, Data> = \P256.Signing.PublicKey.derRepresentation
        let _: KeyPath<P256.Signing.PublicKey, String> = \P256.Signing.PublicKey.pemRepresentation
        let _: (Bool) -> P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey.init(compactRepresentable:)
        let _: (Data) throws -> P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey.init(rawRepresentation:)
        let _: (Data) throws -> P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey.init(x963Representation:)
        let _: (Data) throws -> P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey.init(derRepresentation:)
        let _: (String) throws -> P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey.init(pemRepresentation:)
        let _: KeyPath<P256.KeyAgreement.PrivateKey, P256.KeyAgreement.PublicKey> = \P256.KeyAgreement.PrivateKey.publicKey
        let _: KeyPath<P256.KeyAgreement.PrivateKey, Data> = \P256.KeyAgreement.PrivateKey.rawRepresentation
        let _: KeyPath<P256.KeyAgreement.PrivateKey, Data> = \P256.KeyAgreement.PrivateKey.x963Representation
        let _: KeyPath<P256.KeyAgreement.PrivateKey, Data> = \P256.KeyAgreement.PrivateKey.derRepresentation
        let _: KeyPath<P256.KeyAgreement.PrivateKey, String> = \P256.KeyAgreement.PrivateKey.pemRepresentation
        let _: (Data) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(rawRepresentation:)
        let _: (Data) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(compactRepresentation:)
        let _: (Data) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(x963Representation:)
        let _: (Data) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(compressedRepresentation:)
        let _: (Data) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(derRepresentation:)
        let _: (String) throws -> P256.KeyAgreement.PublicKey = P256.KeyAgreement.PublicKey.init(pemRepresentation:)
        let _: KeyPath<P256.KeyAgreement.PublicKey, Data> = \P256.KeyAgreement.PublicKey.rawRepresentation
        let _: KeyPath<P256.KeyAgreement.PublicKey, Data?> = \P256.KeyAgreement.PublicKey.compactRepresentation
        let _: KeyPath<P256.KeyAgreement.PublicKey, Data> = \P256.KeyAgreement.PublicKey.x963Representation
        let _: KeyPath<P256.KeyAgreement.PublicKey, Data> = \P256.KeyAgreement.PublicKey.compressedRepresentation
        let _: KeyPath<P256.KeyAgreement.PublicKey, Data> = \P256.KeyAgreement.PublicKey.derRepresentation
        let _: KeyPath<P256.KeyAgreement.PublicKey, String> = \P256.KeyAgreement.PublicKey.pemRepresentation
        let _: (P256.Signing.PrivateKey) -> (Data) throws -> P256.Signing.ECDSASignature = P256.Signing.PrivateKey.signature(for:)
        let _: (P256.Signing.PrivateKey) -> (SHA256.Digest) throws -> P256.Signing.ECDSASignature = P256.Signing.PrivateKey.signature(for:)
        let _: (P256.Signing.PublicKey) -> (P256.Signing.ECDSASignature, Data) -> Bool = P256.Signing.PublicKey.isValidSignature(_:for:)
        let _: (P256.Signing.PublicKey) -> (P256.Signing.ECDSASignature, SHA256.Digest) -> Bool = P256.Signing.PublicKey.isValidSignature(_:for:)
        let _: (Data) throws -> P256.Signing.ECDSASignature = P256.Signing.ECDSASignature.init(rawRepresentation:)
        let _: (Data) throws -> P256.Signing.ECDSASignature = P256.Signing.ECDSASignature.init(derRepresentation:)
        let _: KeyPath<P256.Signing.ECDSASignature, Data> = \P256.Signing.ECDSASignature.rawRepresentation
        let _: KeyPath<P256.Signing.ECDSASignature, Data> = \P256.Signing.ECDSASignature.derRepresentation
        let _: (P256.Signing.ECDSASignature) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            P256.Signing.ECDSASignature.withUnsafeBytes(_:)
        pinContiguousBytes(P256.Signing.ECDSASignature.self)
        let _: (P256.KeyAgreement.PrivateKey) -> (P256.KeyAgreement.PublicKey) throws -> SharedSecret = P256.KeyAgreement.PrivateKey.sharedSecretFromKeyAgreement(with:)
        let _ = { () throws in
            let key = P256.Signing.PrivateKey()
            let signature = try key.signature(for: Data("message".utf8))
            let valid: Bool = key.publicKey.isValidSignature(signature, for: Data("message".utf8))
            let secret = try P256.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PrivateKey().publicKey)
            _ = (valid, secret)
        }
    }

    static func p384() {
        let _: (Bool) -> P384.Signing.PrivateKey = P384.Signing.PrivateKey.init(compactRepresentable:)
        let _: (Data) throws -> P384.Signing.PrivateKey = P384.Signing.PrivateKey.init(rawRepresentation:)
        let _: (Data) throws -> P384.Signing.PrivateKey = P384.Signing.PrivateKey.init(x963Representation:)
        let _: (Data) throws -> P384.Signing.PrivateKey = P384.Signing.PrivateKey.init(derRepresentation:)
        let _: (String) throws -> P384.Signing.PrivateKey = P384.Signing.PrivateKey.init(pemRepresentation:)
        let _: KeyPath<P384.Signing.PrivateKey, P384.Signing.PublicKey> = \P384.Signing.PrivateKey.publicKey
        let _: KeyPath<P384.Signing.PrivateKey, Data> = \P384.Signing.PrivateKey.rawRepresentation
        let _: KeyPath<P384.Signing.PrivateKey, Data> = \P384.Signing.PrivateKey.x963Representation
        let _: KeyPath<P384.Signing.PrivateKey, Data> = \P384.Signing.PrivateKey.derRepresentation
        let _: KeyPath<P384.Signing.PrivateKey, String> = \P384.Signing.PrivateKey.pemRepresentation
        let _: (Data) throws -> P384.Signing.PublicKey = P384.Signing.PublicKey.init(rawRepresentation:)
        let _: (Data) throws -> P384.Signing.PublicKey = P384.Signing.PublicKey.init(compactRepresentation:)
        let _: (Data) throws -> P384.Signing.PublicKey = P384.Signing.PublicKey.init(x963Representation:)
        let _: (Data) throws -> P384.Signing.PublicKey = P384.Signing.PublicKey.init(compressedRepresentation:)
        let _: (Data) throws -> P384.Signing.PublicKey = P384.Signing.PublicKey.init(derRepresentation:)
        let _: (String) throws -> P384.Signing.PublicKey = P384.Signing.PublicKey.init(pemRepresentation:)
        let _: KeyPath<P384.Signing.PublicKey, Data> = \P384.Signing.PublicKey.rawRepresentation
        let _: KeyPath<P384.Signing.PublicKey, Data?> = \P384.Signing.PublicKey.compactRepresentation
        let _: KeyPath<P384.Signing.PublicKey, Data> = \P384.Signing.PublicKey.x963Representation
        let _: KeyPath<P384.Signing.PublicKey, Data> = \P384.Signing.PublicKey.compressedRepresentation
        let _: KeyPath<P384.Signing.PublicKey, Data> = \P384.Signing.PublicKey.derRepresentation
        let _: KeyPath<P384.Signing.PublicKey, String> = \P384.Signing.PublicKey.pemRepresentation
        let _: (Bool) -> P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey.init(compactRepresentable:)
        let _: (Data) throws -> P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey.init(rawRepresentation:)
        let _: (Data) throws -> P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey.init(x963Representation:)
        let _: (Data) throws -> P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey.init(derRepresentation:)
        let _: (String) throws -> P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey.init(pemRepresentation:)
        let _: KeyPath<P384.KeyAgreement.PrivateKey, P384.KeyAgreement.PublicKey> = \P384.KeyAgreement.PrivateKey.publicKey
        let _: KeyPath<P384.KeyAgreement.PrivateKey, Data> = \P384.KeyAgreement.PrivateKey.rawRepresentation
        let _: KeyPath<P384.KeyAgreement.PrivateKey, Data> = \P384.KeyAgreement.PrivateKey.x963Representation
        let _: KeyPath<P384.KeyAgreement.PrivateKey, Data> = \P384.KeyAgreement.PrivateKey.derRepresentation
        let _: KeyPath<P384.KeyAgreement.PrivateKey, String> = \P384.KeyAgreement.PrivateKey.pemRepresentation
        let _: (Data) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(rawRepresentation:)
        let _: (Data) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(compactRepresentation:)
        let _: (Data) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(x963Representation:)
        let _: (Data) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(compressedRepresentation:)
        let _: (Data) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(derRepresentation:)
        let _: (String) throws -> P384.KeyAgreement.PublicKey = P384.KeyAgreement.PublicKey.init(pemRepresentation:)
        let _: KeyPath<P384.KeyAgreement.PublicKey, Data> = \P384.KeyAgreement.PublicKey.rawRepresentation
        let _: KeyPath<P384.KeyAgreement.PublicKey, Data?> = \P384.KeyAgreement.PublicKey.compactRepresentation
        let _: KeyPath<P384.KeyAgreement.PublicKey, Data> = \P384.KeyAgreement.PublicKey.x963Representation
        let _: KeyPath<P384.KeyAgreement.PublicKey, Data> = \P384.KeyAgreement.PublicKey.compressedRepresentation
        let _: KeyPath<P384.KeyAgreement.PublicKey, Data> = \P384.KeyAgreement.PublicKey.derRepresentation
        let _: KeyPath<P384.KeyAgreement.PublicKey, String> = \P384.KeyAgreement.PublicKey.pemRepresentation
        let _: (P384.Signing.PrivateKey) -> (Data) throws -> P384.Signing.ECDSASignature = P384.Signing.PrivateKey.signature(for:)
        let _: (P384.Signing.PrivateKey) -> (SHA384.Digest) throws -> P384.Signing.ECDSASignature = P384.Signing.PrivateKey.signature(for:)
        let _: (P384.Signing.PublicKey) -> (P384.Signing.ECDSASignature, Data) -> Bool = P384.Signing.PublicKey.isValidSignature(_:for:)
        let _: (P384.Signing.PublicKey) -> (P384.Signing.ECDSASignature, SHA384.Digest) -> Bool = P384.Signing.PublicKey.isValidSignature(_:for:)
        let _: (Data) throws -> P384.Signing.ECDSASignature = P384.Signing.ECDSASignature.init(rawRepresentation:)
        let _: (Data) throws -> P384.Signing.ECDSASignature = P384.Signing.ECDSASignature.init(derRepresentation:)
        let _: KeyPath<P384.Signing.ECDSASignature, Data> = \P384.Signing.ECDSASignature.rawRepresentation
        let _: KeyPath<P384.Signing.ECDSASignature, Data> = \P384.Signing.ECDSASignature.derRepresentation
        let _: (P384.Signing.ECDSASignature) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            P384.Signing.ECDSASignature.withUnsafeBytes(_:)
        pinContiguousBytes(P384.Signing.ECDSASignature.self)
        let _: (P384.KeyAgreement.PrivateKey) -> (P384.KeyAgreement.PublicKey) throws -> SharedSecret = P384.KeyAgreement.PrivateKey.sharedSecretFromKeyAgreement(with:)
        let _ = { () throws in
            let key = P384.Signing.PrivateKey()
            let signature = try key.signature(for: Data("message".utf8))
            let valid: Bool = key.publicKey.isValidSignature(signature, for: Data("message".utf8))
            let secret = try P384.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PrivateKey().publicKey)
            _ = (valid, secret)
        }
    }

    static func p521() {
        let _: (Bool) -> P521.Signing.PrivateKey = P521.Signing.PrivateKey.init(compactRepresentable:)
        let _: (Data) throws -> P521.Signing.PrivateKey = P521.Signing.PrivateKey.init(rawRepresentation:)
        let _: (Data) throws -> P521.Signing.PrivateKey = P521.Signing.PrivateKey.init(x963Representation:)
        let _: (Data) throws -> P521.Signing.PrivateKey = P521.Signing.PrivateKey.init(derRepresentation:)
        let _: (String) throws -> P521.Signing.PrivateKey = P521.Signing.PrivateKey.init(pemRepresentation:)
        let _: KeyPath<P521.Signing.PrivateKey, P521.Signing.PublicKey> = \P521.Signing.PrivateKey.publicKey
        let _: KeyPath<P521.Signing.PrivateKey, Data> = \P521.Signing.PrivateKey.rawRepresentation
        let _: KeyPath<P521.Signing.PrivateKey, Data> = \P521.Signing.PrivateKey.x963Representation
        let _: KeyPath<P521.Signing.PrivateKey, Data> = \P521.Signing.PrivateKey.derRepresentation
        let _: KeyPath<P521.Signing.PrivateKey, String> = \P521.Signing.PrivateKey.pemRepresentation
        let _: (Data) throws -> P521.Signing.PublicKey = P521.Signing.PublicKey.init(rawRepresentation:)
        let _: (Data) throws -> P521.Signing.PublicKey = P521.Signing.PublicKey.init(compactRepresentation:)
        let _: (Data) throws -> P521.Signing.PublicKey = P521.Signing.PublicKey.init(x963Representation:)
        let _: (Data) throws -> P521.Signing.PublicKey = P521.Signing.PublicKey.init(compressedRepresentation:)
        let _: (Data) throws -> P521.Signing.PublicKey = P521.Signing.PublicKey.init(derRepresentation:)
        let _: (String) throws -> P521.Signing.PublicKey = P521.Signing.PublicKey.init(pemRepresentation:)
        let _: KeyPath<P521.Signing.PublicKey, Data> = \P521.Signing.PublicKey.rawRepresentation
        let _: KeyPath<P521.Signing.PublicKey, Data?> = \P521.Signing.PublicKey.compactRepresentation
        let _: KeyPath<P521.Signing.PublicKey, Data> = \P521.Signing.PublicKey.x963Representation
        let _: KeyPath<P521.Signing.PublicKey, Data> = \P521.Signing.PublicKey.compressedRepresentation
        let _: KeyPath<P521.Signing.PublicKey, Data> = \P521.Signing.PublicKey.derRepresentation
        let _: KeyPath<P521.Signing.PublicKey, String> = \P521.Signing.PublicKey.pemRepresentation
        let _: (Bool) -> P521.KeyAgreement.PrivateKey = P521.KeyAgreement.PrivateKey.init(compactRepresentable:)
        let _: (Data) throws -> P521.KeyAgreement.PrivateKey = P521.KeyAgreement.PrivateKey.init(rawRepresentation:)
        let _: (Data) throws -> P521.KeyAgreement.PrivateKey = P521.KeyAgreement.PrivateKey.init(x963Representation:)
        let _: (Data) throws -> P521.KeyAgreement.PrivateKey = P521.KeyAgreement.PrivateKey.init(derRepresentation:)
        let _: (String) throws -> P521.KeyAgreement.PrivateKey = P521.KeyAgreement.PrivateKey.init(pemRepresentation:)
        let _: KeyPath<P521.KeyAgreement.PrivateKey, P521.KeyAgreement.PublicKey> = \P521.KeyAgreement.PrivateKey.publicKey
        let _: KeyPath<P521.KeyAgreement.PrivateKey, Data> = \P521.KeyAgreement.PrivateKey.rawRepresentation
        let _: KeyPath<P521.KeyAgreement.PrivateKey, Data> = \P521.KeyAgreement.PrivateKey.x963Representation
        let _: KeyPath<P521.KeyAgreement.PrivateKey, Data> = \P521.KeyAgreement.PrivateKey.derRepresentation
        let _: KeyPath<P521.KeyAgreement.PrivateKey, String> = \P521.KeyAgreement.PrivateKey.pemRepresentation
        let _: (Data) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(rawRepresentation:)
        let _: (Data) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(compactRepresentation:)
        let _: (Data) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(x963Representation:)
        let _: (Data) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(compressedRepresentation:)
        let _: (Data) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(derRepresentation:)
        let _: (String) throws -> P521.KeyAgreement.PublicKey = P521.KeyAgreement.PublicKey.init(pemRepresentation:)
        let _: KeyPath<P521.KeyAgreement.PublicKey, Data> = \P521.KeyAgreement.PublicKey.rawRepresentation
        let _: KeyPath<P521.KeyAgreement.PublicKey, Data?> = \P521.KeyAgreement.PublicKey.compactRepresentation
        let _: KeyPath<P521.KeyAgreement.PublicKey, Data> = \P521.KeyAgreement.PublicKey.x963Representation
        let _: KeyPath<P521.KeyAgreement.PublicKey, Data> = \P521.KeyAgreement.PublicKey.compressedRepresentation
        let _: KeyPath<P521.KeyAgreement.PublicKey, Data> = \P521.KeyAgreement.PublicKey.derRepresentation
        let _: KeyPath<P521.KeyAgreement.PublicKey, String> = \P521.KeyAgreement.PublicKey.pemRepresentation
        let _: (P521.Signing.PrivateKey) -> (Data) throws -> P521.Signing.ECDSASignature = P521.Signing.PrivateKey.signature(for:)
        let _: (P521.Signing.PrivateKey) -> (SHA512.Digest) throws -> P521.Signing.ECDSASignature = P521.Signing.PrivateKey.signature(for:)
        let _: (P521.Signing.PublicKey) -> (P521.Signing.ECDSASignature, Data) -> Bool = P521.Signing.PublicKey.isValidSignature(_:for:)
        let _: (P521.Signing.PublicKey) -> (P521.Signing.ECDSASignature, SHA512.Digest) -> Bool = P521.Signing.PublicKey.isValidSignature(_:for:)
        let _: (Data) throws -> P521.Signing.ECDSASignature = P521.Signing.ECDSASignature.init(rawRepresentation:)
        let _: (Data) throws -> P521.Signing.ECDSASignature = P521.Signing.ECDSASignature.init(derRepresentation:)
        let _: KeyPath<P521.Signing.ECDSASignature, Data> = \P521.Signing.ECDSASignature.rawRepresentation
        let _: KeyPath<P521.Signing.ECDSASignature, Data> = \P521.Signing.ECDSASignature.derRepresentation
        let _: (P521.Signing.ECDSASignature) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int =
            P521.Signing.ECDSASignature.withUnsafeBytes(_:)
        pinContiguousBytes(P521.Signing.ECDSASignature.self)
        let _: (P521.KeyAgreement.PrivateKey) -> (P521.KeyAgreement.PublicKey) throws -> SharedSecret = P521.KeyAgreement.PrivateKey.sharedSecretFromKeyAgreement(with:)
        let _ = { () throws in
            let key = P521.Signing.PrivateKey()
            let signature = try key.signature(for: Data("message".utf8))
            let valid: Bool = key.publicKey.isValidSignature(signature, for: Data("message".utf8))
            let secret = try P521.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: P521.KeyAgreement.PrivateKey().publicKey)
            _ = (valid, secret)
        }
    }

    static func curve25519() {
        let _: () -> Curve25519.Signing.PrivateKey = Curve25519.Signing.PrivateKey.init
        let _: (Data) throws -> Curve25519.Signing.PrivateKey = Curve25519.Signing.PrivateKey.init(rawRepresentation:)
        let _: KeyPath<Curve25519.Signing.PrivateKey, Curve25519.Signing.PublicKey> = \Curve25519.Signing.PrivateKey.publicKey
        let _: KeyPath<Curve25519.Signing.PrivateKey, Data> = \Curve25519.Signing.PrivateKey.rawRepresentation
        let _: (Curve25519.Signing.PrivateKey) -> (Data) throws -> Data = Curve25519.Signing.PrivateKey.signature(for:)
        let _: (Data) throws -> Curve25519.Signing.PublicKey = Curve25519.Signing.PublicKey.init(rawRepresentation:)
        let _: KeyPath<Curve25519.Signing.PublicKey, Data> = \Curve25519.Signing.PublicKey.rawRepresentation
        let _: (Curve25519.Signing.PublicKey) -> (Data, Data) -> Bool = Curve25519.Signing.PublicKey.isValidSignature(_:for:)
        let _: () -> Curve25519.KeyAgreement.PrivateKey = Curve25519.KeyAgreement.PrivateKey.init
        let _: (Data) throws -> Curve25519.KeyAgreement.PrivateKey = Curve25519.KeyAgreement.PrivateKey.init(rawRepresentation:)
        let _: KeyPath<Curve25519.KeyAgreement.PrivateKey, Curve25519.KeyAgreement.PublicKey> =
            \Curve25519.KeyAgreement.PrivateKey.publicKey
        let _: KeyPath<Curve25519.KeyAgreement.PrivateKey, Data> = \Curve25519.KeyAgreement.PrivateKey.rawRepresentation
        let _: (Curve25519.KeyAgreement.PrivateKey) -> (Curve25519.KeyAgreement.PublicKey) throws -> SharedSecret =
            Curve25519.KeyAgreement.PrivateKey.sharedSecretFromKeyAgreement(with:)
        let _: (Data) throws -> Curve25519.KeyAgreement.PublicKey = Curve25519.KeyAgreement.PublicKey.init(rawRepresentation:)
        let _: KeyPath<Curve25519.KeyAgreement.PublicKey, Data> = \Curve25519.KeyAgreement.PublicKey.rawRepresentation
    }

    /// `DiffieHellmanKeyAgreement` (iOS 17, macOS 14; `Sendable`, with a `Sendable` public key type, from the iOS 18.4
    /// SDK on).
    static func keyAgreement() {
        func agreement<K: DiffieHellmanKeyAgreement>(_: K.Type) {
            let _: KeyPath<K, K.PublicKey> = \K.publicKey
            let _: (K) -> (K.PublicKey) throws -> SharedSecret = { (key: K) in key.sharedSecretFromKeyAgreement(with:) }
        }
        agreement(P256.KeyAgreement.PrivateKey.self)
        agreement(P384.KeyAgreement.PrivateKey.self)
        agreement(P521.KeyAgreement.PrivateKey.self)
        agreement(Curve25519.KeyAgreement.PrivateKey.self)
    }

    static func errors() {
        pinError(CryptoKitError.self)
        if #available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, *) {
            pinHashable(CryptoKitError.self)
        }
        let _: CryptoKitError = CryptoKitError.incorrectKeySize
        let _: CryptoKitError = CryptoKitError.incorrectParameterSize
        let _: CryptoKitError = CryptoKitError.authenticationFailure
        let _: (Int32) -> CryptoKitError = CryptoKitError.underlyingCoreCryptoError(error:)
        let _: CryptoKitError = CryptoKitError.wrapFailure
        let _: CryptoKitError = CryptoKitError.unwrapFailure
        let _: CryptoKitError = CryptoKitError.invalidParameter
        pinError(CryptoKitASN1Error.self)
        pinHashable(CryptoKitASN1Error.self)
        let _: CryptoKitASN1Error = CryptoKitASN1Error.invalidFieldIdentifier
        let _: CryptoKitASN1Error = CryptoKitASN1Error.unexpectedFieldType
        let _: CryptoKitASN1Error = CryptoKitASN1Error.invalidObjectIdentifier
        let _: CryptoKitASN1Error = CryptoKitASN1Error.invalidASN1Object
        let _: CryptoKitASN1Error = CryptoKitASN1Error.invalidASN1IntegerEncoding
        let _: CryptoKitASN1Error = CryptoKitASN1Error.truncatedASN1Field
        let _: CryptoKitASN1Error = CryptoKitASN1Error.unsupportedFieldLength
        let _: CryptoKitASN1Error = CryptoKitASN1Error.invalidPEMDocument
        let _ = { (error: any Error) in
            guard let failure = error as? CryptoKitError else { return }
            if case let .underlyingCoreCryptoError(code) = failure { _ = code }
        }
    }
}
#endif
