// Hash functions against published answers:
// - SHA-1, SHA-256, SHA-384, SHA-512: FIPS 180-4 examples (NIST "Cryptographic Standards and Guidelines: Examples
//   with Intermediate Values", SHA_All.pdf) — "abc", the 448-bit and 896-bit two-block messages, and one million
//   repetitions of "a" (FIPS 180-2 appendix C / B / A) — and the well-known digest of the empty message.
// - MD5: the RFC 1321 appendix A.5 test suite (all seven messages).
import CryptoKit
import Foundation
import Testing

@Suite("Digests: FIPS 180-4 and RFC 1321")
struct DigestVectorTests {
    static let abc = Data("abc".utf8)
    static let twoBlock448 = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    static let twoBlock896 = Data(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8)
    static let millionA = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)

    @Test("SHA-1 (FIPS 180-4)")
    func sha1() {
        #expect(Insecure.SHA1.hash(data: Self.abc).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Insecure.SHA1.hash(data: Self.twoBlock448).hexString == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Insecure.SHA1.hash(data: Self.millionA).hexString == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(Insecure.SHA1.hash(data: Data()).hexString == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Insecure.SHA1.byteCount == 20 && Insecure.SHA1.blockByteCount == 64)
    }

    @Test("SHA-256 (FIPS 180-4)")
    func sha256() {
        #expect(SHA256.hash(data: Self.abc).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash(data: Self.twoBlock448).hexString
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(data: Self.millionA).hexString
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hash(data: Data()).hexString
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.byteCount == 32 && SHA256.blockByteCount == 64 && SHA256.Digest.byteCount == 32)
    }

    @Test("SHA-384 (FIPS 180-4)")
    func sha384() {
        #expect(SHA384.hash(data: Self.abc).hexString
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(SHA384.hash(data: Self.twoBlock896).hexString
                == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
        #expect(SHA384.hash(data: Self.millionA).hexString
                == "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985")
        #expect(SHA384.byteCount == 48 && SHA384.blockByteCount == 128)
    }

    @Test("SHA-512 (FIPS 180-4)")
    func sha512() {
        #expect(SHA512.hash(data: Self.abc).hexString
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(SHA512.hash(data: Self.twoBlock896).hexString
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        #expect(SHA512.hash(data: Self.millionA).hexString
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
        #expect(SHA512.byteCount == 64 && SHA512.blockByteCount == 128)
    }

    @Test("MD5 (RFC 1321 A.5)", arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5(message: String, digest: String) {
        #expect(Insecure.MD5.hash(data: Data(message.utf8)).hexString == digest)
    }

    @Test("Incremental hashing, in any split, equals one-shot hashing")
    func incremental() {
        let message = Self.twoBlock896
        var hasher = SHA512()
        for chunk in stride(from: 0, to: message.count, by: 7) {
            hasher.update(data: message[chunk..<min(chunk + 7, message.count)])
        }
        let copy = hasher  // value semantics: finishing one copy leaves the other usable
        #expect(hasher.finalize() == SHA512.hash(data: message))
        var other = copy
        other.update(data: Data("x".utf8))
        #expect(copy.finalize() == SHA512.hash(data: message))
        #expect(other.finalize() != copy.finalize())

        #expect(SHA256.hash(data: split(Self.twoBlock448)) == SHA256.hash(data: Self.twoBlock448))
        var viaBuffer = SHA256()  // the requirement `update(bufferPointer:)` (`hash(bufferPointer:)` is internal in Apple's)
        Self.abc.withUnsafeBytes { viaBuffer.update(bufferPointer: $0) }
        #expect(viaBuffer.finalize().hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("Digests are byte sequences that compare with bytes")
    func digestAsBytes() {
        let digest = SHA256.hash(data: Self.abc)
        let bytes = Data(hex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Data(digest) == bytes)
        #expect(Array(digest) == Array(bytes))
        #expect(digest.withUnsafeBytes { Data($0) } == bytes)
        #expect(digest == bytes)
        #expect(!(digest == bytes.dropLast()))
        #expect(Set([digest, SHA256.hash(data: Self.abc)]).count == 1)
    }

    /// How CryptoKit prints a digest and an HMAC code: the algorithm and the bytes in lowercase hexadecimal.
    @Test("Digests and codes print their bytes")
    func descriptions() {
        #expect(SHA256.hash(data: Self.abc).description
                == "SHA256 digest: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Insecure.SHA1.hash(data: Self.abc).description == "SHA1 digest: a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Insecure.MD5.hash(data: Self.abc).description == "MD5 digest: 900150983cd24fb0d6963f7d28e17f72")
        #expect("\(SHA384.hash(data: Self.abc))".hasPrefix("SHA384 digest: cb00753f45a35e8b"))
        // RFC 4231 test case 2.
        let code = HMAC<SHA256>.authenticationCode(for: Data("what do ya want for nothing?".utf8),
                                                   using: SymmetricKey(data: Data("Jefe".utf8)))
        #expect(code.description == "HMAC with SHA256: 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
