import Foundation
import LatchkeyCrypto
import Testing

private func hexBytes(_ hex: String) -> Data { Data(hexString: hex) ?? Data() }

/// RFC 4231 §4.2–4.8, test cases 1–7, for HMAC-SHA-256/384/512.
@Suite struct HMACTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: Data
        let data: Data
        let sha256: String
        let sha384: String
        let sha512: String
        var testDescription: String { name }
    }

    static let aa131 = Data(repeating: 0xaa, count: 131)

    static let vectors: [Vector] = [
        Vector(name: "case 1", key: Data(repeating: 0x0b, count: 20), data: Data("Hi There".utf8),
               sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
               sha384: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
               sha512: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                   + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
        Vector(name: "case 2", key: Data("Jefe".utf8), data: Data("what do ya want for nothing?".utf8),
               sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
               sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
               sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                   + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
        Vector(name: "case 3", key: Data(repeating: 0xaa, count: 20), data: Data(repeating: 0xdd, count: 50),
               sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
               sha384: "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
               sha512: "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
                   + "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
        Vector(name: "case 4", key: hexBytes("0102030405060708090a0b0c0d0e0f10111213141516171819"),
               data: Data(repeating: 0xcd, count: 50),
               sha256: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
               sha384: "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
               sha512: "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
                   + "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
        Vector(name: "case 6", key: aa131, data: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
               sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
               sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                   + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
        Vector(name: "case 7", key: aa131,
               data: Data(("This is a test using a larger than block-size key and a larger than block-size data. "
                   + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
               sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
               sha384: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
               sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                   + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
    ]

    @Test(arguments: vectors)
    func rfc4231(_ v: Vector) {
        let key = SymmetricKey(data: v.key)
        #expect(HashAlgorithm.sha256.authenticationCode(for: v.data, using: key).hexString == v.sha256)
        #expect(HashAlgorithm.sha384.authenticationCode(for: v.data, using: key).hexString == v.sha384)
        #expect(HashAlgorithm.sha512.authenticationCode(for: v.data, using: key).hexString == v.sha512)
        #expect(HMAC<SHA256>.isValidAuthenticationCode(hexBytes(v.sha256), authenticating: v.data, using: key))
        #expect(HMAC<SHA384>.isValidAuthenticationCode(hexBytes(v.sha384), authenticating: v.data, using: key))
        #expect(HMAC<SHA512>.isValidAuthenticationCode(hexBytes(v.sha512), authenticating: v.data, using: key))
    }

    /// Case 5: the RFC gives only the first 128 bits of each output.
    @Test func rfc4231TruncationCase5() {
        let key = SymmetricKey(data: Data(repeating: 0x0c, count: 20))
        let data = Data("Test With Truncation".utf8)
        #expect(HashAlgorithm.sha256.authenticationCode(for: data, using: key).prefix(16).hexString
            == "a3b6167473100ee06e0c796c2955552b")
        #expect(HashAlgorithm.sha384.authenticationCode(for: data, using: key).prefix(16).hexString
            == "3abf34c3503b2a23a46efc619baef897")
        #expect(HashAlgorithm.sha512.authenticationCode(for: data, using: key).prefix(16).hexString
            == "415fad6271580a531d4179bc891d87a6")
        // A truncated code is never accepted as valid.
        let truncated = HashAlgorithm.sha256.authenticationCode(for: data, using: key).prefix(16)
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(truncated, authenticating: data, using: key))
    }

    @Test func rejectsWrongKeyDataAndCode() {
        let key = SymmetricKey(data: Data(repeating: 0x0b, count: 20))
        let data = Data("Hi There".utf8)
        let code = HashAlgorithm.sha256.authenticationCode(for: data, using: key)
        #expect(HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: data, using: key))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: data, using: SymmetricKey(data: Data(repeating: 0x0c, count: 20))))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data("Hi there".utf8), using: key))
        var flipped = code
        flipped[flipped.startIndex + 31] ^= 0x01
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(flipped, authenticating: data, using: key))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(Data(), authenticating: data, using: key))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(code + Data([0]), authenticating: data, using: key))
        // The SHA-256 code is not valid under SHA-512.
        #expect(!HMAC<SHA512>.isValidAuthenticationCode(code, authenticating: data, using: key))
    }

    @Test func emptyKeyAndEmptyMessage() {
        // HMAC with an empty key is defined (the key is zero-padded); OpenSSL must not treat it as "no key".
        let code = HashAlgorithm.sha256.authenticationCode(for: Data(), using: SymmetricKey(data: Data()))
        #expect(code.count == 32)
        #expect(code.hexString == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func nonContiguousInputs() {
        let key = SymmetricKey(data: Data(repeating: 0x0b, count: 20))
        let bytes: [UInt8] = Array("Hi There".utf8)
        #expect(HashAlgorithm.sha256.authenticationCode(for: bytes, using: key).hexString
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let sliced = Data("xxHi There".utf8).dropFirst(2)
        #expect(HashAlgorithm.sha256.authenticationCode(for: sliced, using: key).hexString
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }
}

@Suite struct ConstantTimeTests {
    @Test func equalsComparesLengthAndBytes() {
        #expect(ConstantTime.equals(Data([1, 2, 3]), [UInt8]([1, 2, 3])))
        #expect(!ConstantTime.equals(Data([1, 2, 3]), Data([1, 2, 4])))
        #expect(!ConstantTime.equals(Data([1, 2, 3]), Data([1, 2])))
        #expect(!ConstantTime.equals(Data(), Data([0])))
        #expect(ConstantTime.equals(Data(), Data()))
        #expect(ConstantTime.equals(Data([9, 1, 2, 3]).dropFirst(), Data([1, 2, 3])))
    }
}
