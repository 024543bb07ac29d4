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
}
