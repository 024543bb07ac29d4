#if !LATCHKEY_APPLE_FRAMEWORKS  // the Linux store and Argon2id (libsodium) have no Apple counterpart
import Foundation
import LatchkeyCrypto
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Argon2id v=19. RFC 9106 §5.3 uses p=4 with a secret and associated data, which libsodium cannot express,
/// so the known answers are the reference implementation's argon2id v=0x13 vectors (P-H-C/phc-winner-argon2,
/// src/test.c: password "password", salt "somesalt"). libsodium's `crypto_pwhash` only takes 16-byte salts, so
/// those 8-byte-salt vectors are checked through verification (which recomputes the hash with the string's
/// salt and parameters), and `deriveKey` is checked against them indirectly and, when the Debian runtime
/// library `libargon2.so.1` (the reference implementation) is present, directly with a 16-byte salt.
@Suite struct Argon2idTests {
    struct Reference: Sendable, CustomTestStringConvertible {
        let password: String
        let rawHash: String
        let phc: String
        var testDescription: String { phc }
    }

    static let references: [Reference] = [
        Reference(password: "password", rawHash: "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7",
                  phc: "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"),
        Reference(password: "password", rawHash: "9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe",
                  phc: "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4"),
        Reference(password: "password", rawHash: "6d093c501fd5999645e0ea3bf620d7b8be7fd2db59c20d9fff9539da2bf57037",
                  phc: "$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc"),
        Reference(password: "password", rawHash: "f6a5adc1ba723dddef9b5ac1d464e180fcd9dffc9d1cbf76cca2fed795d9ca98",
                  phc: "$argon2id$v=19$m=65536,t=1,p=1$c29tZXNhbHQ$9qWtwbpyPd3vm1rB1GThgPzZ3/ydHL92zKL+15XZypg"),
        Reference(password: "differentpassword",
                  rawHash: "0b84d652cf6b0c4beaef0dfe278ba6a80df6696281d7e0d2891b817d8c458fde",
                  phc: "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$C4TWUs9rDEvq7w3+J4umqA32aWKB1+DSiRuBfYxFj94"),
        Reference(password: "password", rawHash: "bdf32b05ccc42eb15d58fd19b1f856b113da1e9a5874fdcc544308565aa8141c",
                  phc: "$argon2id$v=19$m=65536,t=2,p=1$ZGlmZnNhbHQ$vfMrBczELrFdWP0ZsfhWsRPaHppYdP3MVEMIVlqoFBw"),
    ]

    /// Small parameters so the suite stays fast; the cost parameters' effect is covered by the references.
    static let fast = Argon2id.Parameters(memoryKiB: 1024, iterations: 1, parallelism: 1)

    @Test(arguments: references)
    func referenceVectorsVerify(_ r: Reference) throws {
        #expect(try Argon2id.verify(password: Data(r.password.utf8), against: r.phc))
        #expect(try !Argon2id.verify(password: Data("passwore".utf8), against: r.phc))
        let parsed = try Argon2id.PHCString.parse(r.phc)
        #expect(parsed.hash.hexString == r.rawHash)
        #expect(parsed.encoded == r.phc)
    }

    @Test func referenceParametersParse() throws {
        let parsed = try Argon2id.PHCString.parse(Self.references[0].phc)
        #expect(parsed.parameters == Argon2id.Parameters(memoryKiB: 65536, iterations: 2, parallelism: 1))
        #expect(parsed.salt == Data("somesalt".utf8))
    }

    @Test func hashProducesLibsodiumPHCStringAndVerifies() throws {
        let password = Data("correct horse battery staple".utf8)
        let phc = try Argon2id.hash(password: password, parameters: Self.fast)
        #expect(phc.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        let parsed = try Argon2id.PHCString.parse(phc)
        #expect(parsed.salt.count == 16 && parsed.hash.count == 32)
        #expect(try Argon2id.verify(password: password, against: phc))
        #expect(try !Argon2id.verify(password: Data("correct horse battery stapler".utf8), against: phc))
        // Fresh salt every time.
        #expect(try Argon2id.hash(password: password, parameters: Self.fast) != phc)
    }

    @Test func defaultParametersAreOWASP() throws {
        let phc = try Argon2id.hash(password: Data("pw".utf8))
        #expect(phc.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(Argon2id.Parameters.moderate == Argon2id.Parameters(memoryKiB: 65536, iterations: 3, parallelism: 1))
    }

    /// The raw derivation and the string form compute the same function (same salt, same parameters).
    @Test func deriveKeyMatchesTheHashInsideThePHCString() throws {
        let password = Data("pässwörd".utf8)
        let parsed = try Argon2id.PHCString.parse(try Argon2id.hash(password: password, parameters: Self.fast))
        let key = try Argon2id.deriveKey(password: password, salt: parsed.salt, parameters: parsed.parameters)
        #expect(key.withUnsafeBytes { Data($0) } == parsed.hash)
        let other = try Argon2id.deriveKey(password: password, salt: parsed.salt,
                                           parameters: .init(memoryKiB: 1024, iterations: 2, parallelism: 1))
        #expect(other.withUnsafeBytes { Data($0) } != parsed.hash)
    }

    /// Cross-check against the reference implementation (Debian libargon2-1) when it is installed.
    @Test func deriveKeyMatchesReferenceImplementation() throws {
        guard let reference = ReferenceArgon2.load() else { return }
        let salt = Data((0..<16).map { UInt8($0 * 7 + 1) })
        for (password, params, length) in [
            ("password", Argon2id.Parameters(memoryKiB: 65536, iterations: 2, parallelism: 1), 32),
            ("", Argon2id.Parameters(memoryKiB: 8, iterations: 1, parallelism: 1), 16),
            ("pass wörd", Argon2id.Parameters(memoryKiB: 1024, iterations: 3, parallelism: 1), 64),
        ] {
            let expected = try #require(reference.hash(password: Data(password.utf8), salt: salt, parameters: params,
                                                       length: length))
            let key = try Argon2id.deriveKey(password: Data(password.utf8), salt: salt, parameters: params,
                                             outputByteCount: length)
            #expect(key.withUnsafeBytes { Data($0) } == expected)
        }
    }

    @Test func rejectsParametersLibsodiumCannotCompute() {
        let salt = Data(count: 16)
        #expect(throws: CryptoError.self) {
            try Argon2id.deriveKey(password: Data("p".utf8), salt: salt,
                                   parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 4))
        }
        #expect(throws: CryptoError.self) {
            try Argon2id.hash(password: Data("p".utf8), parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 2))
        }
        // Huge memory, zero memory, zero passes, too many passes.
        for bad in [Argon2id.Parameters(memoryKiB: 1 << 30, iterations: 1, parallelism: 1),
                    .init(memoryKiB: Argon2id.Parameters.maximumMemoryKiB + 1, iterations: 1, parallelism: 1),
                    .init(memoryKiB: 0, iterations: 1, parallelism: 1),
                    .init(memoryKiB: 1024, iterations: 0, parallelism: 1),
                    .init(memoryKiB: 1024, iterations: 1000, parallelism: 1)] {
            #expect(throws: CryptoError.self) { try Argon2id.hash(password: Data("p".utf8), parameters: bad) }
            #expect(throws: CryptoError.self) { try Argon2id.deriveKey(password: Data("p".utf8), salt: salt, parameters: bad) }
        }
        // Salt must be 16 bytes; output 16...1024.
        #expect(throws: CryptoError.self) {
            try Argon2id.deriveKey(password: Data("p".utf8), salt: Data("somesalt".utf8), parameters: Self.fast)
        }
        #expect(throws: CryptoError.self) {
            try Argon2id.deriveKey(password: Data("p".utf8), salt: salt, parameters: Self.fast, outputByteCount: 8)
        }
    }

    static let malformed: [String] = [
        "",
        "$argon2id$",
        "argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2d$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=16$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$t=2,m=65536,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=065536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=-1,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=+65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1,k=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ=$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHR$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29t$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFh",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc$",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQCTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNh_HQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc\n",
        " $argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPP€",
        // Out-of-range costs: huge memory, zero passes, zero lanes, m < 8·p.
        "$argon2id$v=19$m=4294967295,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=99999999999,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=2097152,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=0,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=4294967295,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=0$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=16,t=2,p=4$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2id$v=19$m=65536,t=2,p=1$" + String(repeating: "A", count: 600) + "$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
    ]

    @Test(arguments: malformed)
    func malformedStringsAreRejected(_ phc: String) {
        #expect(throws: CryptoError.self) { try Argon2id.PHCString.parse(phc) }
        #expect {
            try Argon2id.verify(password: Data("password".utf8), against: phc)
        } throws: { error in
            guard case .malformedInput = error as? CryptoError else { return false }
            return true
        }
        #expect(Argon2id.needsRehash(phc, parameters: .owasp))
    }

    @Test func needsRehash() throws {
        let owaspString = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(!Argon2id.needsRehash(owaspString, parameters: .owasp))
        #expect(Argon2id.needsRehash(owaspString, parameters: .moderate))
        #expect(Argon2id.needsRehash(owaspString, parameters: .init(memoryKiB: 19456, iterations: 3, parallelism: 1)))
        #expect(Argon2id.needsRehash(owaspString, parameters: .init(memoryKiB: 19457, iterations: 2, parallelism: 1)))
        // Stronger than required: no rehash.
        #expect(!Argon2id.needsRehash(Self.references[0].phc, parameters: .owasp))
        #expect(!Argon2id.needsRehash(Self.references[0].phc, parameters: .init(memoryKiB: 65536, iterations: 2, parallelism: 1)))
        #expect(Argon2id.needsRehash("not a hash", parameters: .owasp))
    }

    @Test func parametersAreCodable() throws {
        let data = try JSONEncoder().encode(Argon2id.Parameters.moderate)
        #expect(try JSONDecoder().decode(Argon2id.Parameters.self, from: data) == .moderate)
    }
}

/// The reference implementation, loaded at run time from Debian's libargon2-1 (test-only cross-check).
private struct ReferenceArgon2 {
    typealias HashRaw = @convention(c) (
        UInt32, UInt32, UInt32, UnsafeRawPointer?, Int, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int
    ) -> Int32
    let hashRaw: HashRaw

    static func load() -> ReferenceArgon2? {
        #if canImport(Glibc)
        guard let handle = dlopen("libargon2.so.1", RTLD_NOW), let symbol = dlsym(handle, "argon2id_hash_raw") else {
            return nil
        }
        return ReferenceArgon2(hashRaw: unsafeBitCast(symbol, to: HashRaw.self))
        #else
        return nil
        #endif
    }

    func hash(password: Data, salt: Data, parameters: Argon2id.Parameters, length: Int) -> Data? {
        var out = Data(count: length)
        let result = out.withUnsafeMutableBytes { o in
            password.withUnsafeBytes { p in
                salt.withUnsafeBytes { s in
                    hashRaw(UInt32(parameters.iterations), UInt32(parameters.memoryKiB), UInt32(parameters.parallelism),
                            p.baseAddress, p.count, s.baseAddress, s.count, o.baseAddress, o.count)
                }
            }
        }
        return result == 0 ? out : nil
    }
}
#endif
