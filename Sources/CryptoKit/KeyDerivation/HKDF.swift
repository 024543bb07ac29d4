import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// A standards-based implementation of an HMAC-based Key Derivation Function (RFC 5869), by OpenSSL `EVP_KDF`.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public struct HKDF<H: HashFunction>: Sendable {
    /// Derives a symmetric encryption key from a main key or passcode using HKDF key derivation with information and
    /// salt you specify. An empty salt means hash-length zero bytes, as RFC 5869 §2.2 specifies.
    /// (Inlinable: the caller's module specializes it for its data types.)
    @inlinable
    public static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt, info: Info, outputByteCount: Int
    ) -> SymmetricKey {
        ContiguousBytesInput.with(salt) { saltBytes in
            ContiguousBytesInput.with(info) { infoBytes in
                deriveKey(inputKeyMaterial: inputKeyMaterial, saltBytes: saltBytes, infoBytes: infoBytes,
                          outputByteCount: outputByteCount)
            }
        }
    }

    @usableFromInline
    static func deriveKey(inputKeyMaterial: SymmetricKey, saltBytes: UnsafeRawBufferPointer,
                          infoBytes: UnsafeRawBufferPointer, outputByteCount: Int) -> SymmetricKey {
        let digest = openSSLDigest(of: H.self)
        return derived { () throws(CryptoError) in
            try HKDFEngine.deriveKey(ikm: inputKeyMaterial.secret.bytes, salt: saltBytes, info: infoBytes,
                                     outputByteCount: outputByteCount, digest: digest)
        }
    }

    /// Derives a symmetric encryption key from a main key or passcode using HKDF key derivation with information you
    /// specify.
    public static func deriveKey<Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey, info: Info, outputByteCount: Int
    ) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: info, outputByteCount: outputByteCount)
    }

    /// Derives a symmetric encryption key from a main key or passcode using HKDF key derivation with a salt you
    /// specify.
    public static func deriveKey<Salt: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt, outputByteCount: Int
    ) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: salt, info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// Derives a symmetric encryption key from a main key or passcode using HKDF key derivation.
    public static func deriveKey(inputKeyMaterial: SymmetricKey, outputByteCount: Int) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// Creates a cryptographically strong key from the input key material and a salt (the HKDF extract step).
    public static func extract<Salt: DataProtocol>(inputKeyMaterial: SymmetricKey, salt: Salt?)
        -> HashedAuthenticationCode<H> {
        let digest = openSSLDigest(of: H.self)
        let prk: SymmetricKey = ContiguousInput.with(salt.map { [UInt8]($0) } ?? []) { saltBytes in
            derived { () throws(CryptoError) in try HKDFEngine.extract(ikm: inputKeyMaterial.secret.bytes, salt: saltBytes, digest: digest) }
        }
        return HashedAuthenticationCode<H> { out in
            out.count == prk.secret.byteCount && { out.copyMemory(from: prk.secret.bytes); return true }()
        }
    }

    /// Expands a pseudorandom key into a key of the given length (the HKDF expand step).
    public static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
        pseudoRandomKey prk: PRK, info: Info?, outputByteCount: Int
    ) -> SymmetricKey {
        let digest = openSSLDigest(of: H.self)
        return prk.withUnsafeBytes { prkBytes in
            ContiguousInput.with(info.map { [UInt8]($0) } ?? []) { infoBytes in
                derived { () throws(CryptoError) in
                    try HKDFEngine.expand(prk: prkBytes, info: infoBytes, outputByteCount: outputByteCount,
                                          digest: digest)
                }
            }
        }
    }

    /// The key an engine derivation made; a length out of HKDF's range (1 ... 255 × hash length) stops the program,
    /// as in CryptoKit.
    private static func derived(_ body: () throws(CryptoError) -> SecretBytes) -> SymmetricKey {
        do {
            return SymmetricKey(secret: try body())
        } catch {
            preconditionFailure("HKDF<\(H.self)>: \(error)")
        }
    }
}
