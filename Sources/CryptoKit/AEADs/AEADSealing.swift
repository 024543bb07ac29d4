import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// The engine calls behind `AES.GCM` and `ChaChaPoly` (both seal to `nonce || ciphertext || tag`), with the engine's
/// errors turned into CryptoKit's.
enum AEADSealing {
    static func seal(_ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, nonce: Data,
                     aad: UnsafeRawBufferPointer, cipher: AEADCipher) throws -> Data {
        try nonce.withUnsafeBytes { nonceBytes in
            try engine { () throws(CryptoError) in
                try AEADEngine.seal(plaintext, key: key.secret, nonce: nonceBytes, aad: aad, cipher: cipher)
            }
        }
    }

    static func open(_ combined: Data, nonceByteCount: Int = AEADEngine.nonceByteCount, key: SymmetricKey,
                     aad: UnsafeRawBufferPointer, cipher: AEADCipher) throws -> Data {
        try combined.withUnsafeBytes { box in
            try engine { () throws(CryptoError) in
                try AEADEngine.open(box, nonceByteCount: nonceByteCount, key: key.secret, aad: aad, cipher: cipher)
            }
        }
    }

    /// `nonce || ciphertext || tag`, the combined form of a sealed box made from its parts; a tag of another length
    /// than `tagByteCount` is `incorrectParameterSize`.
    static func combined<C: DataProtocol, T: DataProtocol>(nonce: Data, ciphertext: C, tag: T,
                                                           tagByteCount: Int) throws -> Data {
        guard tag.count == tagByteCount else { throw CryptoKitError.incorrectParameterSize }
        var combined = Data(capacity: nonce.count + ciphertext.count + tag.count)
        combined.append(nonce)
        combined.append(contentsOf: ciphertext)
        combined.append(contentsOf: tag)
        return combined
    }
}
