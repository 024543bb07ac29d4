#if !LATCHKEY_APPLE_FRAMEWORKS  // checked against OpenSSL itself, which the Apple build does not link
import COpenSSL
import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyCrypto

/// ECDSA keys keep one `EVP_PKEY_CTX` initialized for signing and one for verifying (`PreparedPKeyContexts`):
/// published signatures must verify on the second and later calls too, after failures, from many threads at
/// once, and what the reused contexts sign must verify with OpenSSL's own one-shot calls and vice versa.
@Suite struct PreparedPKeyContextTests {
    static let message = Data("The quick brown fox jumps over the lazy dog".utf8)

    /// `EVP_DigestVerifyInit` + `EVP_DigestVerify` on a key read from SPKI DER: no LatchkeyCrypto code involved.
    static func rawVerify(spki: Data, der: Data, message: Data, md: String) -> Bool {
        let key: OpaquePointer? = spki.withUnsafeBytes { buf in
            var p = buf.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_PUBKEY(nil, &p, buf.count)
        }
        guard let key else { return false }
        defer { EVP_PKEY_free(key) }
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit_ex(ctx, nil, md, nil, nil, key, nil) == 1 else { return false }
        let status = der.withUnsafeBytes { sig in
            message.withUnsafeBytes { m in
                EVP_DigestVerify(ctx, sig.baseAddress?.assumingMemoryBound(to: UInt8.self), sig.count,
                                 m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count)
            }
        }
        ERR_clear_error()
        return status == 1
    }

    /// `EVP_DigestSignInit` + `EVP_DigestSign` on a key read from PKCS#8 DER: OpenSSL's DER signature.
    static func rawSign(pkcs8: Data, message: Data, md: String) throws -> Data {
        let key: OpaquePointer? = pkcs8.withUnsafeBytes { buf in
            var p = buf.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_AutoPrivateKey(nil, &p, buf.count)
        }
        let pkey = try #require(key)
        defer { EVP_PKEY_free(pkey) }
        let ctx = try #require(EVP_MD_CTX_new())
        defer { EVP_MD_CTX_free(ctx) }
        #expect(EVP_DigestSignInit_ex(ctx, nil, md, nil, nil, pkey, nil) == 1)
        var out = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(pkey)))
        var length = out.count
        let ok = message.withUnsafeBytes { m in
            EVP_DigestSign(ctx, &out, &length, m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count)
        }
        #expect(ok == 1)
        return Data(out.prefix(length))
    }

    @Test func p256SignaturesVerifyWithOpenSSLAndOpenSSLsVerifyHere() throws {
        let key = P256.Signing.PrivateKey()
        let pkcs8 = key.derRepresentation
        var seen = Set<Data>()
        for round in 0..<20 {
            let message = Self.message + Data([UInt8(round)])
            // Ours (reused context) → OpenSSL's one-shot verify.
            let ours = try key.signature(for: message)
            seen.insert(ours.rawRepresentation)
            #expect(Self.rawVerify(spki: key.publicKey.derRepresentation, der: ours.derRepresentation, message: message,
                                   md: "SHA2-256"))
            #expect(try sameEncoding(P256.Signing.ECDSASignature(derRepresentation: ours.derRepresentation), ours))
            // OpenSSL's one-shot sign → our reused verify context, then a wrong one, then the right one again.
            let theirs = try P256.Signing.ECDSASignature(derRepresentation: Self.rawSign(pkcs8: pkcs8, message: message,
                                                                                          md: "SHA2-256"))
            #expect(key.publicKey.isValidSignature(theirs, for: message))
            #expect(!key.publicKey.isValidSignature(theirs, for: Self.message + Data([UInt8(round), 0])))
            var tampered = theirs.rawRepresentation
            tampered[5] ^= 0x40
            #expect(!key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: tampered),
                                                    for: message))
            #expect(key.publicKey.isValidSignature(theirs, for: message))
            #expect(key.publicKey.isValidSignature(ours, for: message))
        }
        // Every signature drew a fresh nonce from OpenSSL.
        #expect(seen.count == 20)
    }

    @Test func p384SignaturesVerifyWithOpenSSLAndOpenSSLsVerifyHere() throws {
        let key = P384.Signing.PrivateKey()
        let pkcs8 = key.derRepresentation
        for round in 0..<5 {
            let message = Self.message + Data([UInt8(round)])
            let ours = try key.signature(for: message)
            #expect(ours.rawRepresentation.count == 96)
            #expect(Self.rawVerify(spki: key.publicKey.derRepresentation, der: ours.derRepresentation, message: message,
                                   md: "SHA2-384"))
            let theirs = try P384.Signing.ECDSASignature(derRepresentation: Self.rawSign(pkcs8: pkcs8, message: message,
                                                                                          md: "SHA2-384"))
            #expect(key.publicKey.isValidSignature(theirs, for: message))
            #expect(!key.publicKey.isValidSignature(theirs, for: Self.message))
        }
    }

    /// RFC 6979 A.2.5's published P-256 signatures, verified again and again on the key's one context,
    /// with a failure between every two calls.
    @Test func publishedSignaturesVerifyOnAReusedContext() throws {
        let key = try P256.Signing.PublicKey(x963Representation: #require(Data(hexString: ECDSADigestTests.rfc6979PublicKey)))
        for _ in 0..<3 {
            for vector in ECDSADigestTests.rfc6979Signatures {
                let signature = try P256.Signing.ECDSASignature(rawRepresentation: #require(Data(hexString: vector.r + vector.s)))
                #expect(key.isValidSignature(signature, for: Data(vector.message.utf8)))
                #expect(!key.isValidSignature(signature, for: Data((vector.message + "!").utf8)))
                #expect(key.isValidSignature(signature, for: SHA256.hash(data: Data(vector.message.utf8))))
            }
        }
    }

    /// JWS verification re-encodes r||s as DER on the stack: wrong lengths and flipped bits are refused.
    @Test func jwsRawSignaturesAreCheckedStrictly() throws {
        let key = P256.Signing.PrivateKey()
        let input = Data("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0".utf8)
        let raw = try key.signature(for: input).rawRepresentation
        let verification = JWSVerificationKey.p256(key.publicKey)
        #expect(verification.isValid(signature: raw, signingInput: input, algorithm: .ES256))
        #expect(!verification.isValid(signature: raw.dropLast(), signingInput: input, algorithm: .ES256))
        #expect(!verification.isValid(signature: raw + Data([0]), signingInput: input, algorithm: .ES256))
        #expect(!verification.isValid(signature: Data(count: 64), signingInput: input, algorithm: .ES256))
        for bit in [0, 100, 300, 511] {
            var flipped = raw
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(!verification.isValid(signature: flipped, signingInput: input, algorithm: .ES256))
        }
        #expect(!verification.isValid(signature: raw, signingInput: input + Data([0x2e]), algorithm: .ES256))
        #expect(verification.isValid(signature: raw, signingInput: input, algorithm: .ES256))
    }

    /// Eight threads sign and verify with one key at once: threads that find a context busy use a one-shot
    /// one, and every signature verifies (also with OpenSSL's one-shot call) while wrong ones still fail.
    @Test func oneKeyFromEightThreads() async throws {
        let key = P256.Signing.PrivateKey()
        let publicKey = key.publicKey
        let spki = publicKey.derRepresentation
        let failures = await onThreads(8) { thread -> Int in
            var failed = 0
            for round in 0..<40 {
                let message = Data("thread \(thread) round \(round)".utf8)
                guard let signature = try? key.signature(for: message),
                      publicKey.isValidSignature(signature, for: message),
                      !publicKey.isValidSignature(signature, for: message + Data([1])),
                      round % 8 != 0 || Self.rawVerify(spki: spki, der: signature.derRepresentation, message: message,
                                                      md: "SHA2-256")
                else { failed += 1; continue }
            }
            return failed
        }
        #expect(failures.reduce(0, +) == 0)
    }

    /// Keys made, used (so their contexts exist) and released in a loop, some never used: each frees its
    /// contexts with it, and a public key outlives the private key it came from.
    @Test func keysFreedWithTheirContexts() throws {
        var survivors: [(P256.Signing.PublicKey, P256.Signing.ECDSASignature, Data)] = []
        for round in 0..<50 {
            let message = Data("round \(round)".utf8)
            let key = P256.Signing.PrivateKey()
            if round % 5 == 4 { continue }  // never used: no context was made
            let signature = try key.signature(for: message)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            survivors.append((key.publicKey, signature, message))
        }
        for (publicKey, signature, message) in survivors {
            #expect(publicKey.isValidSignature(signature, for: message))
        }
    }
}
#endif
