// HMAC against published answers:
// - HMAC-SHA-256/384/512: RFC 4231 §4.2–§4.8, test cases 1–7 (case 5 is compared on its first 128 bits, as the RFC
//   truncates it).
// - HMAC-SHA-1 and HMAC-MD5: RFC 2202 §3 and §2, test cases 1–7.
import CryptoKit
import Foundation
import Testing

struct HMACVector: Sendable {
    let name: String
    let key: Data
    let message: Data
    let sha256: String
    let sha384: String
    let sha512: String
    var truncatedTo: Int? = nil
}

@Suite("HMAC: RFC 4231 and RFC 2202")
struct HMACVectorTests {
    static let longKey = Data(repeating: 0xaa, count: 131)

    static let rfc4231: [HMACVector] = [
        HMACVector(name: "4.2 test case 1", key: Data(repeating: 0x0b, count: 20), message: Data("Hi There".utf8),
                   sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                   sha384: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
                   sha512: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                       + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
        HMACVector(name: "4.3 test case 2", key: Data("Jefe".utf8), message: Data("what do ya want for nothing?".utf8),
                   sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                   sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
                   sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                       + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
        HMACVector(name: "4.4 test case 3", key: Data(repeating: 0xaa, count: 20), message: Data(repeating: 0xdd, count: 50),
                   sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
                   sha384: "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
                   sha512: "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
                       + "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
        HMACVector(name: "4.5 test case 4", key: Data(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"),
                   message: Data(repeating: 0xcd, count: 50),
                   sha256: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
                   sha384: "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
                   sha512: "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
                       + "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
        HMACVector(name: "4.6 test case 5 (truncated to 128 bits)", key: Data(repeating: 0x0c, count: 20),
                   message: Data("Test With Truncation".utf8),
                   sha256: "a3b6167473100ee06e0c796c2955552b", sha384: "3abf34c3503b2a23a46efc619baef897",
                   sha512: "415fad6271580a531d4179bc891d87a6", truncatedTo: 16),
        HMACVector(name: "4.7 test case 6", key: longKey,
                   message: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                   sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
                   sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
                   sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                       + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
        HMACVector(name: "4.8 test case 7", key: longKey,
                   message: Data(("This is a test using a larger than block-size key and a larger than block-size data. "
                       + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
                   sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
                   sha384: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
                   sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                       + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
    ]

    static func check<H: HashFunction>(_: H.Type, _ vector: HMACVector, expected: String) {
        let key = SymmetricKey(data: vector.key)
        let code = HMAC<H>.authenticationCode(for: vector.message, using: key)
        let hex = code.hexString
        if let truncatedTo = vector.truncatedTo {
            #expect(String(hex.prefix(2 * truncatedTo)) == expected, "\(vector.name)")
            #expect(HMAC<H>.isValidAuthenticationCode(Data(code), authenticating: vector.message, using: key))
            #expect(!HMAC<H>.isValidAuthenticationCode(Data(hex: expected), authenticating: vector.message, using: key),
                    "a truncated code is not a valid code")
            return
        }
        #expect(hex == expected, "\(vector.name)")
        #expect(code.byteCount == H.Digest.byteCount)
        #expect(HMAC<H>.isValidAuthenticationCode(code, authenticating: vector.message, using: key))
        #expect(HMAC<H>.isValidAuthenticationCode(Data(hex: expected), authenticating: vector.message, using: key))
        #expect(HMAC<H>.isValidAuthenticationCode(Data(hex: expected), authenticating: split(vector.message), using: key))
        #expect(!HMAC<H>.isValidAuthenticationCode(code, authenticating: vector.message + Data([0]), using: key))
        #expect(vector.message.withUnsafeBytes { HMAC<H>.isValidAuthenticationCode(code, authenticating: $0, using: key) })
        #expect(code == Data(hex: expected))

        // Incremental: byte by byte, and a copy taken halfway keeps its own state.
        var mac = HMAC<H>(key: key)
        let half = vector.message.count / 2
        for byte in vector.message.prefix(half) { mac.update(data: [byte]) }
        var copy = mac
        mac.update(data: vector.message.dropFirst(half))
        #expect(mac.finalize().hexString == expected)
        copy.update(data: Data([0x00]))
        #expect(copy.finalize().hexString != expected)
    }

    @Test("HMAC-SHA256 (RFC 4231)", arguments: rfc4231)
    func hmacSHA256(_ vector: HMACVector) { Self.check(SHA256.self, vector, expected: vector.sha256) }

    @Test("HMAC-SHA384 (RFC 4231)", arguments: rfc4231)
    func hmacSHA384(_ vector: HMACVector) { Self.check(SHA384.self, vector, expected: vector.sha384) }

    @Test("HMAC-SHA512 (RFC 4231)", arguments: rfc4231)
    func hmacSHA512(_ vector: HMACVector) { Self.check(SHA512.self, vector, expected: vector.sha512) }

    /// RFC 2202: (test case, key, data, HMAC-SHA-1) for SHA-1 and (key, HMAC-MD5) for MD5, whose keys differ in
    /// test cases 1, 3, 4 and 5.
    static let rfc2202: [(Int, Data, Data, String, Data, String)] = [
        (1, Data(repeating: 0x0b, count: 20), Data("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00",
         Data(repeating: 0x0b, count: 16), "9294727a3638bb1c13f48ef8158bfc9d"),
        (2, Data("Jefe".utf8), Data("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
         Data("Jefe".utf8), "750c783e6ab0b503eaa86e310a5db738"),
        (3, Data(repeating: 0xaa, count: 20), Data(repeating: 0xdd, count: 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3",
         Data(repeating: 0xaa, count: 16), "56be34521d144c88dbb8c733f0e8b3f6"),
        (4, Data(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"), Data(repeating: 0xcd, count: 50),
         "4c9007f4026250c6bc8414f9bf50c86c2d7235da",
         Data(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"), "697eaf0aca3a3aea3a75164746ffaa79"),
        (5, Data(repeating: 0x0c, count: 20), Data("Test With Truncation".utf8), "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04",
         Data(repeating: 0x0c, count: 16), "56461ef2342edc00f9bab995690efd4c"),
        (6, Data(repeating: 0xaa, count: 80), Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "aa4ae5e15272d00e95705637ce8a3b55ed402112", Data(repeating: 0xaa, count: 80), "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd"),
        (7, Data(repeating: 0xaa, count: 80),
         Data("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
         "e8e99d0f45237d786d6bbaa7965c7808bbff1a91", Data(repeating: 0xaa, count: 80), "6f630fad67cda0ee1fb1f562db3aa53e"),
    ]

    @Test("HMAC-SHA1 and HMAC-MD5 (RFC 2202)")
    func rfc2202Vectors() {
        for (number, sha1Key, message, sha1, md5Key, md5) in Self.rfc2202 {
            #expect(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: sha1Key)).hexString
                    == sha1, "RFC 2202 §3 test case \(number)")
            #expect(HMAC<Insecure.MD5>.authenticationCode(for: message, using: SymmetricKey(data: md5Key)).hexString
                    == md5, "RFC 2202 §2 test case \(number)")
        }
    }
}
