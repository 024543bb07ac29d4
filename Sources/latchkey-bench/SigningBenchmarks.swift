import COpenSSL
import Foundation
import LatchkeyCrypto

enum SigningBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "es256 verify", baselineName: "raw EVP_DigestVerify", unit: .operationsPerSecond,
                  target: 1.05, setUp: es256Verify),
        Benchmark(name: "es256 jwt verify", baselineName: "raw EVP_DigestVerify", unit: .operationsPerSecond,
                  target: 1.10, setUp: es256JWTVerify),
    ]

    /// The same P-256 key, message and signature for the wrapper and for direct OpenSSL calls.
    struct Fixture {
        let key: P256.Signing.PrivateKey
        let message: Data
        let signature: P256.Signing.ECDSASignature
        let raw: RawVerifier
    }

    static func fixture(message: Data) throws -> Fixture {
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: message)
        let raw = try RawVerifier(spki: key.publicKey.derRepresentation, signature: signature.derRepresentation, message: message)
        guard raw.verify() else { throw BenchError.setUp("raw verify of the fixture failed") }
        return Fixture(key: key, message: message, signature: signature, raw: raw)
    }

    static func es256Verify() throws -> Benchmark.Pair {
        let f = try fixture(message: Data((0..<200).map { UInt8(truncatingIfNeeded: $0) }))
        return Benchmark.Pair(
            baseline: { guard f.raw.verify() else { throw BenchError.failed } },
            subject: { guard f.key.publicKey.isValidSignature(f.signature, for: f.message) else { throw BenchError.failed } })
    }

    static func es256JWTVerify() throws -> Benchmark.Pair {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let claims = JWTClaims(iss: "https://issuer.example", sub: "user-1", aud: ["app"], exp: now.addingTimeInterval(3600),
                               iat: now, jti: "0123456789abcdef", extra: ["scope": .string("read write")])
        let token = try JWT.sign(claims: claims, header: JWSHeader(alg: .ES256, kid: "k1", typ: "at+jwt"), key: .p256(key))
        let jws = try JWS(compactSerialization: token)
        let der = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature).derRepresentation
        let raw = try RawVerifier(spki: key.publicKey.derRepresentation, signature: der, message: jws.signingInput)
        guard raw.verify() else { throw BenchError.setUp("raw verify of the token failed") }
        let options = JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: "https://issuer.example",
                                           audiences: ["app"], expectedType: "at+jwt")
        let verificationKey = JWSVerificationKey.p256(key.publicKey)
        return Benchmark.Pair(
            baseline: { guard raw.verify() else { throw BenchError.failed } },
            subject: { _ = try JWT.verify(token, key: verificationKey, options: options) })
    }
}

enum BenchError: Error {
    case failed, setUp(String)
    /// The figure cannot run here (a tool is missing) and has no target: reported, not a miss.
    case skipped(String)
}

/// Signature verification straight through OpenSSL: d2i_PUBKEY once, then per call
/// EVP_MD_CTX_new + EVP_DigestVerifyInit + EVP_DigestVerify + EVP_MD_CTX_free. ECDSA and RSA (PKCS#1 v1.5, OpenSSL's
/// default padding) with `digest`; Ed25519 with no digest.
// @unchecked Sendable: the EVP_PKEY and EVP_MD are never mutated after setUp; each call has its own EVP_MD_CTX.
final class RawVerifier: @unchecked Sendable {
    let pkey: OpaquePointer
    let md: OpaquePointer?
    let signature: [UInt8]
    let message: [UInt8]

    init(spki: Data, signature: Data, message: Data, digest: String? = "SHA2-256") throws {
        let bytes = [UInt8](spki)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PUBKEY(nil, &p, buf.count)
        }
        guard let key else { throw BenchError.setUp("d2i_PUBKEY") }
        pkey = key
        md = digest.flatMap { EVP_MD_fetch(nil, $0, nil) }
        self.signature = [UInt8](signature)
        self.message = [UInt8](message)
    }

    deinit {
        EVP_PKEY_free(pkey)
        EVP_MD_free(md)
    }

    func verify() -> Bool {
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, md, nil, pkey) == 1 else { return false }
        return EVP_DigestVerify(ctx, signature, signature.count, message, message.count) == 1
    }
}

/// ECDSA signing straight through OpenSSL: d2i_AutoPrivateKey once, then per call
/// EVP_MD_CTX_new + EVP_DigestSignInit + EVP_DigestSign into a preallocated buffer + EVP_MD_CTX_free.
// @unchecked Sendable: the EVP_PKEY and EVP_MD are never mutated after setUp; each call has its own EVP_MD_CTX and
// the output buffer is only written by the one benchmark thread.
final class RawSigner: @unchecked Sendable {
    let pkey: OpaquePointer
    let md: OpaquePointer?
    let message: [UInt8]
    let output: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(pkcs8: Data, message: Data) throws {
        let bytes = [UInt8](pkcs8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_AutoPrivateKey(nil, &p, buf.count)
        }
        guard let key else { throw BenchError.setUp("d2i_AutoPrivateKey") }
        pkey = key
        md = EVP_MD_fetch(nil, "SHA2-256", nil)
        self.message = [UInt8](message)
        capacity = Int(EVP_PKEY_get_size(key))
        output = .allocate(capacity: capacity)
    }

    deinit {
        EVP_PKEY_free(pkey)
        EVP_MD_free(md)
        output.deallocate()
    }

    func sign() throws {
        guard let ctx = EVP_MD_CTX_new() else { throw BenchError.failed }
        defer { EVP_MD_CTX_free(ctx) }
        var length = capacity
        guard EVP_DigestSignInit(ctx, nil, md, nil, pkey) == 1,
              EVP_DigestSign(ctx, output, &length, message, message.count) == 1 else { throw BenchError.failed }
    }
}
