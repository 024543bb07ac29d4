import Foundation
import LatchkeyCrypto
#if os(Linux)
import CryptoKit
#endif

/// `latchkey self-check`: runs known-answer tests of the cryptography and prints one line per check, then says whether
/// a TPM is in use for `SecureEnclave` keys (with a sign-and-verify round trip in it when there is one).
/// Exit status 0 only when every check passes.
enum SelfCheckCommand {
    private struct Check: Sendable {
        let name: String
        let run: @Sendable () throws -> Bool
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print("usage: latchkey self-check\n  Runs the published known-answer vectors (SHA-2, HMAC, HKDF, PBKDF2, AES-GCM, "
                + "ChaCha20-Poly1305, Argon2id) through LatchkeyCrypto, then says whether a TPM is in use for SecureEnclave "
                + "keys (LATCHKEY_TPM_TCTI, else /dev/tpmrm0) and signs and verifies with one there.")
            return 0
        }
        guard arguments.isEmpty else {
            FileHandle.standardError.write(Data("latchkey self-check: unexpected argument '\(arguments[0])'\n".utf8))
            return 64
        }
        var failures = 0
        let checks = checks + secureEnclaveChecks()
        for check in checks {
            let passed: Bool
            do { passed = try check.run() } catch { passed = false }
            if !passed { failures += 1 }
            print("\(passed ? "ok  " : "FAIL") \(check.name)")
        }
        let lang = MessageLanguage.current
        if failures == 0 {
            print(lang.pick(english: "self-check: all \(checks.count) checks passed",
                            korean: "self-check: \(checks.count)개 검사 모두 통과"))
            return 0
        }
        print(lang.pick(english: "self-check: \(failures) of \(checks.count) checks FAILED",
                        korean: "self-check: \(checks.count)개 중 \(failures)개 검사 실패"))
        return 1
    }

    private static func hex(_ string: String) -> Data { Data(hexString: string) ?? Data() }

    /// The TPM line, and the SecureEnclave round trip when a TPM is in use (none without one: its absence is not a
    /// failure, as a Mac without a Secure Enclave is not broken).
    private static func secureEnclaveChecks() -> [Check] {
        #if os(Linux)
        let status = LatchkeySecureEnclaveConfiguration.latchkeyTPMStatus()
        print("TPM (SecureEnclave): \(status.inUse ? "in use — " : "")\(status.description)")
        guard status.inUse else { return [] }
        return [Check(name: "SecureEnclave P-256 key made in the TPM signs; its public key verifies") {
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let message = Data("latchkey self-check".utf8)
            let signature = try key.signature(for: message)
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            return key.publicKey.isValidSignature(signature, for: message)
                && !key.publicKey.isValidSignature(signature, for: Data("latchkey self-checK".utf8))
                && restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation
        }]
        #else
        return []
        #endif
    }
    private static func bytes(_ key: SymmetricKey) -> Data { key.withUnsafeBytes { Data($0) } }

    private static let checks: [Check] = [
        Check(name: "SHA-256 \"abc\" (FIPS 180-4)") {
            SHA256.hash(data: Data("abc".utf8)).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        },
        Check(name: "SHA-512 \"abc\" (FIPS 180-4)") {
            SHA512.hash(data: Data("abc".utf8)).hexString
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        },
        Check(name: "HMAC-SHA-256 RFC 4231 test case 1") {
            let key = SymmetricKey(data: Data(repeating: 0x0b, count: 20))
            let expected = hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
            return HMAC<SHA256>.authenticationCode(for: Data("Hi There".utf8), using: key) == expected
                && HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Data("Hi There".utf8), using: key)
                && !HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Data("Hi there".utf8), using: key)
        },
        Check(name: "HKDF-SHA-256 RFC 5869 test case 1") {
            let okm = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)),
                                         salt: hex("000102030405060708090a0b0c"), info: hex("f0f1f2f3f4f5f6f7f8f9"),
                                         outputByteCount: 42)
            return bytes(okm).hexString
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        },
        Check(name: "PBKDF2-HMAC-SHA-256 RFC 7914 §11 (c=1)") {
            let key = try PBKDF2.deriveKey(password: Data("passwd".utf8), salt: Data("salt".utf8), iterations: 1,
                                           outputByteCount: 64)
            return bytes(key).hexString
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        },
        Check(name: "AES-256-GCM GCM spec test case 16 (seal, open, tamper)") {
            let key = SymmetricKey(data: hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
            let plaintext = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
            let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
            let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: hex("cafebabefacedbaddecaf888")),
                                       authenticating: aad)
            let sealed = box.ciphertext.hexString == "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                && box.tag.hexString == "76fc6ece0f4e1768cddf8853bb2d551b"
            guard var tampered = box.combined else { return false }
            tampered[20] ^= 1
            let rejected: Bool
            do {
                _ = try AES.GCM.open(AES.GCM.SealedBox(combined: tampered), using: key, authenticating: aad)
                rejected = false
            } catch CryptoKitError.authenticationFailure { rejected = true }
            return try sealed && rejected && AES.GCM.open(box, using: key, authenticating: aad) == plaintext
        },
        Check(name: "ChaCha20-Poly1305 RFC 8439 §2.8.2") {
            let box = try ChaChaPoly.seal(
                Data("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8),
                using: SymmetricKey(data: Data(0x80...0x9f)), nonce: ChaChaPoly.Nonce(data: hex("070000004041424344454647")),
                authenticating: hex("50515253c0c1c2c3c4c5c6c7"))
            return box.tag.hexString == "1ae10b594f09e26a7e902ecbd0600691"
                && box.ciphertext.prefix(16).hexString == "d31a8d34648e60db7b86afbc53ef7ec2"
        },
        Check(name: "Argon2id v=19 reference vector (m=65536, t=2, p=1)") {
            let phc = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
            return try Argon2id.verify(password: Data("password".utf8), against: phc)
                && !(try Argon2id.verify(password: Data("passwore".utf8), against: phc))
        },
        Check(name: "Argon2id hash/verify round trip") {
            let phc = try Argon2id.hash(password: Data("self-check".utf8),
                                        parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 1))
            return try Argon2id.verify(password: Data("self-check".utf8), against: phc)
                && !(try Argon2id.verify(password: Data("self-checK".utf8), against: phc))
        },
    ]
}
