import Foundation
import LatchkeyCrypto
import Testing

/// FIPS 180-4 / NIST "Example Algorithms" (CSRC) one-block and two-block messages.
@Suite struct DigestTests {
    static let abc = Data("abc".utf8)
    static let twoBlock = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)

    @Test func sha256() {
        #expect(SHA256.hash(data: Self.abc).hexString
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash(data: Self.twoBlock).hexString
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(data: Data()).hexString
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// SHA-1 (CryptoKit's `Insecure.SHA1`, for legacy TPM RS1 signatures); pinned to the same FIPS 180-4 examples.
    @Test func legacySHA1() {
        #expect(Insecure.SHA1.hash(data: Self.abc).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Insecure.SHA1.hash(data: Self.twoBlock).hexString == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Insecure.SHA1.hash(data: Data()).hexString == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func sha384() {
        #expect(SHA384.hash(data: Self.abc).hexString
            == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
    }

    @Test func sha512() {
        #expect(SHA512.hash(data: Self.abc).hexString
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    @Test(arguments: HashAlgorithm.allCases)
    func outputSizesAndEnumForm(_ algorithm: HashAlgorithm) {
        let digest = algorithm.hash(Self.abc)
        #expect(digest.count == algorithm.outputByteCount)
        switch algorithm {
        case .sha256: #expect(SHA256.hash(data: Self.abc) == digest)
        case .sha384: #expect(SHA384.hash(data: Self.abc) == digest)
        case .sha512: #expect(SHA512.hash(data: Self.abc) == digest)
        }
    }

    @Test func streamingMatchesOneShotAndForksOnCopy() {
        var hasher = SHA256()
        hasher.update(data: Data("abcdbcdecdefdefgefgh".utf8))
        let fork = hasher
        hasher.update(data: Data("fghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(hasher.finalize() == SHA256.hash(data: Self.twoBlock))
        // The copy kept its own state.
        var other = fork
        other.update(data: Data("fghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(other.finalize() == SHA256.hash(data: Self.twoBlock))
        // finalize does not consume the state.
        #expect(hasher.finalize() == hasher.finalize())
    }

    /// The digests are CryptoKit-shaped values: bytes inline, readable as a sequence and as `Data`, compared in
    /// constant time with each other and with bytes, hashable, and never printed.
    @Test func digestValues() {
        let digest = SHA256.hash(data: Self.abc)
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(SHA256Digest.byteCount == 32 && SHA384Digest.byteCount == 48 && SHA512Digest.byteCount == 64)
        #expect(Data(digest).hexString == expected)
        #expect(Array(digest) == Array(Data(hexString: expected)!))
        #expect(digest.map { $0 } == Array(Data(hexString: expected)!))
        #expect(digest.withUnsafeBytes { Data($0) } == Data(hexString: expected))
        #expect(digest.hexString == expected && Array(digest).count == 32)
        #expect(digest == SHA256.hash(data: Data("abc".utf8)))
        #expect(digest != SHA256.hash(data: Data("abd".utf8)))
        #expect(digest == Data(hexString: expected)!)
        #expect(!(digest == Data(hexString: expected)!.dropLast()))
        #expect(!(digest == Data(count: 32)))
        #expect(ConstantTime.equals(digest, Data(hexString: expected)!))
        #expect(ConstantTime.equals(Data(hexString: expected)!, digest))
        #expect(!ConstantTime.equals(Data(count: 32), digest))
        #expect(Set([digest, SHA256.hash(data: Self.abc), SHA256.hash(data: Self.twoBlock)]).count == 2)
        // Printed as CryptoKit prints a digest: its hash's name and the bytes in lowercase hexadecimal.
        #expect(digest.description == "SHA256 digest: " + expected)
        #expect("\(digest)" == "SHA256 digest: " + expected)
        #expect(SHA512.hash(data: Self.abc).description.hasPrefix("SHA512 digest: ddaf35a193617aba"))
        #expect(Insecure.SHA1.hash(data: Self.abc).description == "SHA1 digest: a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Insecure.MD5.hash(data: Self.abc).description == "MD5 digest: 900150983cd24fb0d6963f7d28e17f72")
        let mac = HMAC<SHA256>.authenticationCode(for: Data("what do ya want for nothing?".utf8),
                                                  using: SymmetricKey(data: Data("Jefe".utf8)))
        // RFC 4231 test case 2.
        #expect(mac.description
            == "HMAC with SHA256: 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Data + digest, as WebAuthn builds signed data.
        #expect((Data([1]) + digest).count == 33)
        let hasher = SHA384()
        #expect(hasher.finalize() == SHA384.hash(data: Data()))
    }

    @Test func nonContiguousInput() {
        let parts: [UInt8] = Array("abc".utf8)
        let reversed = parts.reversed().reversed()  // a non-Data collection
        #expect(SHA256.hash(data: Array(reversed)) == SHA256.hash(data: Self.abc))
    }

    @Test func hashAlgorithmIsCodable() throws {
        let encoded = try JSONEncoder().encode([HashAlgorithm.sha384])
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"sha384\"]")
        #expect(try JSONDecoder().decode([HashAlgorithm].self, from: encoded) == [.sha384])
    }
}
