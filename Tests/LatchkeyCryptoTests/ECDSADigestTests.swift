import Foundation
import LatchkeyCrypto
import Testing

/// ECDSA over a precomputed digest (CryptoKit's `signature(for: digest)`; EVP_PKEY_sign / EVP_PKEY_verify on Linux).
@Suite struct ECDSADigestTests {
    let message = Data("The quick brown fox jumps over the lazy dog".utf8)

    // RFC 6979 appendix A.2.5 (ECDSA, P-256): the key, and the SHA-256 signatures of "sample" and "test".
    static let rfc6979PublicKey = "04"
        + "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
        + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    static let rfc6979PrivateKey = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
    static let rfc6979Signatures: [(message: String, r: String, s: String)] = [
        ("sample", "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
         "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        ("test", "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
         "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    ]

    @Test func publishedSignaturesVerifyOverTheirDigest() throws {
        let key = try P256.Signing.PublicKey(x963Representation: #require(Data(hexString: Self.rfc6979PublicKey)))
        for vector in Self.rfc6979Signatures {
            let raw = try #require(Data(hexString: vector.r + vector.s))
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            #expect(key.isValidSignature(signature, for: SHA256.hash(data: Data(vector.message.utf8))))
            #expect(key.isValidSignature(signature, for: Data(vector.message.utf8)))
            #expect(!key.isValidSignature(signature, for: SHA256.hash(data: Data((vector.message + "!").utf8))))
        }
    }

    @Test func theRFCPrivateKeyHasTheRFCPublicKey() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: #require(Data(hexString: Self.rfc6979PrivateKey)))
        #expect(key.publicKey.x963Representation == Data(hexString: Self.rfc6979PublicKey))
        let digest = SHA256.hash(data: Data("sample".utf8))
        let signature = try key.signature(for: digest)
        #expect(key.publicKey.isValidSignature(signature, for: digest))
        #expect(key.publicKey.isValidSignature(signature, for: Data("sample".utf8)))
    }

    @Test func digestSignatureIsAMessageSignature() throws {
        let key = P256.Signing.PrivateKey()
        let digest = SHA256.hash(data: message)
        let signature = try key.signature(for: digest)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        let messageSignature = try key.signature(for: message)
        #expect(key.publicKey.isValidSignature(messageSignature, for: digest))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: digest))
    }

    @Test func p384UsesA48ByteDigest() throws {
        let key = P384.Signing.PrivateKey()
        let digest = SHA384.hash(data: message)
        let signature = try key.signature(for: digest)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(key.publicKey.isValidSignature(signature, for: digest))
        expectCryptoKitError(.incorrectParameterSize) { try key.signature(for: SHA256.hash(data: message)) }
        #expect(!key.publicKey.isValidSignature(signature, for: SHA512.hash(data: message)))
    }

    @Test func digestsOfTheWrongSizeAreRefused() throws {
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: SHA256.hash(data: message))
        expectCryptoKitError(.incorrectParameterSize) { try key.signature(for: SHA384.hash(data: message)) }
        expectCryptoKitError(.incorrectParameterSize) { try key.signature(for: Insecure.SHA1.hash(data: message)) }
        #expect(!key.publicKey.isValidSignature(signature, for: SHA384.hash(data: message)))
        #expect(!key.publicKey.isValidSignature(signature, for: SHA512.hash(data: message)))
    }
}
