// Key agreement on the NIST curves and the two key derivations of `SharedSecret`:
// - ECDH: NIST CAVP "ECC CDH Primitive" test vectors (SP 800-56A, KAS_ECC_CDH_PrimitiveTest.txt in
//   ecccdhtestvectors.zip), COUNT 0 and 1 of [P-256], [P-384] and [P-521]: dIUT gives QIUT, and dIUT with QCAVS
//   gives ZIUT — with QCAVS read from each of its encodings.
// - X9.63 KDF: NIST CAVP "ANS X9.63-2001" KDF vectors (ansx963_2001.rsp, SP 800-135 component tests), [SHA-512]
//   with a 521-bit shared secret, COUNT 3 and 7. A `SharedSecret` can only come from a key agreement, so Z is made
//   one: a P-521 private key d = 1 agreeing with the point whose x is Z gives exactly Z (these two Zs are
//   x-coordinates of P-521 points; the file's other Zs are not, and its 192-bit Zs fit no CryptoKit curve).
//   SHA-1/256/384 are checked against the X9.63 definition (SEC 1 §3.6.1) computed with the hash functions.
// - HKDF of a shared secret is RFC 5869's HKDF with Z as the input key material.
import CryptoKit
import Foundation
import Testing

struct CDHVector: Sendable {
    let curve: String
    let count: Int
    let qCAVSx, qCAVSy, dIUT, qIUTx, qIUTy, zIUT: String
}

@Suite("ECDH and shared-secret KDFs: NIST CAVP")
struct ECDHVectorTests {
    static let cdh: [CDHVector] = [
        CDHVector(curve: "P-256", count: 0,
                  qCAVSx: "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
                  qCAVSy: "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
                  dIUT: "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
                  qIUTx: "ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230",
                  qIUTy: "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
                  zIUT: "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"),
        CDHVector(curve: "P-256", count: 1,
                  qCAVSx: "809f04289c64348c01515eb03d5ce7ac1a8cb9498f5caa50197e58d43a86a7ae",
                  qCAVSy: "b29d84e811197f25eba8f5194092cb6ff440e26d4421011372461f579271cda3",
                  dIUT: "38f65d6dce47676044d58ce5139582d568f64bb16098d179dbab07741dd5caf5",
                  qIUTx: "119f2f047902782ab0c9e27a54aff5eb9b964829ca99c06b02ddba95b0a3f6d0",
                  qIUTy: "8f52b726664cac366fc98ac7a012b2682cbd962e5acb544671d41b9445704d1d",
                  zIUT: "057d636096cb80b67a8c038c890e887d1adfa4195e9b3ce241c8a778c59cda67"),
        CDHVector(curve: "P-384", count: 0,
                  qCAVSx: "a7c76b970c3b5fe8b05d2838ae04ab47697b9eaf52e764592efda27fe7513272734466b400091adbf2d68c58e0c50066",
                  qCAVSy: "ac68f19f2e1cb879aed43a9969b91a0839c4c38a49749b661efedf243451915ed0905a32b060992b468c64766fc8437a",
                  dIUT: "3cc3122a68f0d95027ad38c067916ba0eb8c38894d22e1b15618b6818a661774ad463b205da88cf699ab4d43c9cf98a1",
                  qIUTx: "9803807f2f6d2fd966cdd0290bd410c0190352fbec7ff6247de1302df86f25d34fe4a97bef60cff548355c015dbb3e5f",
                  qIUTy: "ba26ca69ec2f5b5d9dad20cc9da711383a9dbe34ea3fa5a2af75b46502629ad54dd8b7d73a8abb06a3a3be47d650cc99",
                  zIUT: "5f9d29dc5e31a163060356213669c8ce132e22f57c9a04f40ba7fcead493b457e5621e766c40a2e3d4d6a04b25e533f1"),
        CDHVector(curve: "P-384", count: 1,
                  qCAVSx: "30f43fcf2b6b00de53f624f1543090681839717d53c7c955d1d69efaf0349b7363acb447240101cbb3af6641ce4b88e0",
                  qCAVSy: "25e46c0c54f0162a77efcc27b6ea792002ae2ba82714299c860857a68153ab62e525ec0530d81b5aa15897981e858757",
                  dIUT: "92860c21bde06165f8e900c687f8ef0a05d14f290b3f07d8b3a8cc6404366e5d5119cd6d03fb12dc58e89f13df9cd783",
                  qIUTx: "ea4018f5a307c379180bf6a62fd2ceceebeeb7d4df063a66fb838aa35243419791f7e2c9d4803c9319aa0eb03c416b66",
                  qIUTy: "68835a91484f05ef028284df6436fb88ffebabcdd69ab0133e6735a1bcfb37203d10d340a8328a7b68770ca75878a1a6",
                  zIUT: "a23742a2c267d7425fda94b93f93bbcc24791ac51cd8fd501a238d40812f4cbfc59aac9520d758cf789c76300c69d2ff"),
        CDHVector(curve: "P-521", count: 0,
                  qCAVSx: "00685a48e86c79f0f0875f7bc18d25eb5fc8c0b07e5da4f4370f3a9490340854334b1e1b87fa395464c60626124a4e70d0f785601d37c09870ebf176666877a2046d",
                  qCAVSy: "01ba52c56fc8776d9e8f5db4f0cc27636d0b741bbe05400697942e80b739884a83bde99e0f6716939e632bc8986fa18dccd443a348b6c3e522497955a4f3c302f676",
                  dIUT: "017eecc07ab4b329068fba65e56a1f8890aa935e57134ae0ffcce802735151f4eac6564f6ee9974c5e6887a1fefee5743ae2241bfeb95d5ce31ddcb6f9edb4d6fc47",
                  qIUTx: "00602f9d0cf9e526b29e22381c203c48a886c2b0673033366314f1ffbcba240ba42f4ef38a76174635f91e6b4ed34275eb01c8467d05ca80315bf1a7bbd945f550a5",
                  qIUTy: "01b7c85f26f5d4b2d7355cf6b02117659943762b6d1db5ab4f1dbc44ce7b2946eb6c7de342962893fd387d1b73d7a8672d1f236961170b7eb3579953ee5cdc88cd2d",
                  zIUT: "005fc70477c3e63bc3954bd0df3ea0d1f41ee21746ed95fc5e1fdf90930d5e136672d72cc770742d1711c3c3a4c334a0ad9759436a4d3c5bf6e74b9578fac148c831"),
        CDHVector(curve: "P-521", count: 1,
                  qCAVSx: "01df277c152108349bc34d539ee0cf06b24f5d3500677b4445453ccc21409453aafb8a72a0be9ebe54d12270aa51b3ab7f316aa5e74a951c5e53f74cd95fc29aee7a",
                  qCAVSy: "013d52f33a9f3c14384d1587fa8abe7aed74bc33749ad9c570b471776422c7d4505d9b0a96b3bfac041e4c6a6990ae7f700e5b4a6640229112deafa0cd8bb0d089b0",
                  dIUT: "00816f19c1fb10ef94d4a1d81c156ec3d1de08b66761f03f06ee4bb9dcebbbfe1eaa1ed49a6a990838d8ed318c14d74cc872f95d05d07ad50f621ceb620cd905cfb8",
                  qIUTx: "00d45615ed5d37fde699610a62cd43ba76bedd8f85ed31005fe00d6450fbbd101291abd96d4945a8b57bc73b3fe9f4671105309ec9b6879d0551d930dac8ba45d255",
                  qIUTy: "01425332844e592b440c0027972ad1526431c06732df19cd46a242172d4dd67c2c8c99dfc22e49949a56cf90c6473635ce82f25b33682fb19bc33bd910ed8ce3a7fa",
                  zIUT: "000b3920ac830ade812c8f96805da2236e002acbbf13596a9ab254d44d0e91b6255ebf1229f366fb5a05c5884ef46032c26d42189273ca4efa4c3db6bd12a6853759"),
    ]

    static func check<K: AgreementPrivateKeyUnderTest>(_: K.Type, _ v: CDHVector) throws {
        let key = try K(rawRepresentation: Data(hex: v.dIUT))
        #expect(key.publicKey.x963Representation == Data([0x04]) + Data(hex: v.qIUTx) + Data(hex: v.qIUTy),
                "\(v.curve) COUNT \(v.count): QIUT")
        let x963 = Data([0x04]) + Data(hex: v.qCAVSx) + Data(hex: v.qCAVSy)
        let peer = try K.PublicKey(x963Representation: x963)
        let z = Data(hex: v.zIUT)
        let peers: [K.PublicKey] = [
            peer,
            try K.PublicKey(rawRepresentation: x963.dropFirst()),
            try K.PublicKey(compressedRepresentation: peer.compressedRepresentation),
            try K.PublicKey(derRepresentation: peer.derRepresentation),
            try K.PublicKey(pemRepresentation: peer.pemRepresentation),
        ]
        for (index, other) in peers.enumerated() {
            let secret = try key.sharedSecretFromKeyAgreement(with: other)
            #expect(secret.withUnsafeBytes { Data($0) } == z, "\(v.curve) COUNT \(v.count): ZIUT (encoding \(index))")
            #expect(secret == z)
        }
        // The same key through its other encodings agrees to the same secret.
        for copy in [try K(x963Representation: key.x963Representation), try K(derRepresentation: key.derRepresentation),
                     try K(pemRepresentation: key.pemRepresentation)] {
            #expect(try copy.sharedSecretFromKeyAgreement(with: peer) == z)
        }
    }

    @Test("ECC CDH primitive (CAVP)", arguments: cdh)
    func cavp(_ v: CDHVector) throws {
        switch v.curve {
        case "P-256": try Self.check(P256.KeyAgreement.PrivateKey.self, v)
        case "P-384": try Self.check(P384.KeyAgreement.PrivateKey.self, v)
        default: try Self.check(P521.KeyAgreement.PrivateKey.self, v)
        }
    }

    @Test("Both sides of a fresh agreement compute the same secret")
    func bothSides() throws {
        let alice = P384.KeyAgreement.PrivateKey(), bob = P384.KeyAgreement.PrivateKey()
        let a = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        let b = try bob.sharedSecretFromKeyAgreement(with: alice.publicKey)
        #expect(a == b)
        #expect(a.withUnsafeBytes { $0.count } == 48)
        #expect(a.x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: Data(), outputByteCount: 32)
                == b.x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: Data(), outputByteCount: 32))
    }

    /// A shared secret equal to `z` (66 bytes, an x-coordinate on P-521): d = 1 times the point with that x.
    static func sharedSecret(equalTo z: Data) throws -> SharedSecret {
        let one = try P521.KeyAgreement.PrivateKey(rawRepresentation: Data(count: 65) + Data([1]))
        let point = try P521.KeyAgreement.PublicKey(compressedRepresentation: Data([0x02]) + z)
        let secret = try one.sharedSecretFromKeyAgreement(with: point)
        #expect(secret == z)
        return secret
    }

    @Test("X9.63 KDF, SHA-512, 521-bit Z (CAVP ansx963_2001 [SHA-512] COUNT 3 and 7)", arguments: [
        ("01a33032a2bf6f8e9d6972dd339536c9e248ae9881844ff1bd04af48085be4ca1834f2a94ce1019dd9620d1e3a68203a5b291f40b5f8e3238"
            + "a2a036312b89061cc60",
         "d3297ad6b9757d1f5a9d5b0e72176d74",
         "63565d1d3443620fba4218c97887ff40d6d68bf56b429c22018be5d91c318187ebe8a9399c5cc6c4a849288ab784d4340714ae3fdb426c4a83db"
            + "9ce2ba8aea80d448e50ad543749b47bcaae519f7f00badd8d48296e81069104dcd293c605b08159ef2ef14c7833739d0414274136ae4db05ba"
            + "4fa31b29c59de46d9be539525f"),
        ("00632e165775f3c5b6e81d4042f809e904b8167687747638874b39ffce1993f46e8fc44e2a1c3df59563003bad3e25c85b61819e9addc0fdbe1"
            + "73dd4115c38f62ef6",
         "2bf0f18b7f21c4ec9c20b84c75f66b7c",
         "c324fed01b75c37fc96703031403d5cc6857dc7ffa48192d9a10d5c69dd6274ecd0eb9a278f9e6b616c27bbf2e3e016635b311940390c52c61a4"
            + "f4b3383ca6046961dbd2455ff6a982e8269864edd3cc1b1053da7daf9699c61b05f1acca7b79e68db655fd526fdc392bd36dcaf1c5b2fafb89"
            + "75e318070d4bb948829ac41bb6"),
    ])
    func x963SHA512(zHex: String, sharedInfoHex: String, keyDataHex: String) throws {
        let secret = try Self.sharedSecret(equalTo: Data(hex: zHex))
        let keyData = Data(hex: keyDataHex)
        let derived = secret.x963DerivedSymmetricKey(using: SHA512.self, sharedInfo: Data(hex: sharedInfoHex),
                                                     outputByteCount: keyData.count)
        #expect(derived == SymmetricKey(data: keyData))
        let splitInfo = secret.x963DerivedSymmetricKey(using: SHA512.self, sharedInfo: split(Data(hex: sharedInfoHex)),
                                                       outputByteCount: keyData.count)
        #expect(splitInfo == derived)
        let shorter = secret.x963DerivedSymmetricKey(using: SHA512.self, sharedInfo: Data(hex: sharedInfoHex),
                                                     outputByteCount: 16)
        #expect(shorter.withUnsafeBytes { Data($0) } == keyData.prefix(16))
    }

    /// The secret of a CAVP vector's dIUT with its QCAVS.
    static func agreedSecret<K: AgreementPrivateKeyUnderTest>(_: K.Type, _ v: CDHVector) throws -> SharedSecret {
        let key = try K(rawRepresentation: Data(hex: v.dIUT))
        let peer = try K.PublicKey(x963Representation: Data([0x04]) + Data(hex: v.qCAVSx) + Data(hex: v.qCAVSy))
        return try key.sharedSecretFromKeyAgreement(with: peer)
    }

    /// SEC 1 §3.6.1: K = Hash(Z || 00000001 || SI) || Hash(Z || 00000002 || SI) || …, truncated.
    static func x963Reference<H: HashFunction>(_: H.Type, z: Data, sharedInfo: Data, count: Int) -> Data {
        var output = Data()
        var counter: UInt32 = 1
        while output.count < count {
            var hasher = H()
            hasher.update(data: z)
            withUnsafeBytes(of: counter.bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: sharedInfo)
            output.append(contentsOf: hasher.finalize())
            counter += 1
        }
        return output.prefix(count)
    }

    @Test("X9.63 KDF with SHA-1, SHA-256 and SHA-384 follows SEC 1 §3.6.1 on a CAVP CDH secret")
    func x963Definition() throws {
        let v = Self.cdh[0]
        let secret = try Self.agreedSecret(P256.KeyAgreement.PrivateKey.self, v)
        let z = Data(hex: v.zIUT)
        for (info, count) in [(Data(), 16), (Data("SealedNotes".utf8), 32), (Data(repeating: 7, count: 70), 100)] {
            #expect(secret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: info, outputByteCount: count)
                    == SymmetricKey(data: Self.x963Reference(SHA256.self, z: z, sharedInfo: info, count: count)))
            #expect(secret.x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: info, outputByteCount: count)
                    == SymmetricKey(data: Self.x963Reference(SHA384.self, z: z, sharedInfo: info, count: count)))
            #expect(secret.x963DerivedSymmetricKey(using: Insecure.SHA1.self, sharedInfo: info, outputByteCount: count)
                    == SymmetricKey(data: Self.x963Reference(Insecure.SHA1.self, z: z, sharedInfo: info, count: count)))
        }
    }

    @Test("HKDF of a shared secret is RFC 5869 HKDF with Z as input key material")
    func hkdfDerived() throws {
        let v = Self.cdh[2]
        let secret = try Self.agreedSecret(P384.KeyAgreement.PrivateKey.self, v)
        let ikm = SymmetricKey(data: Data(hex: v.zIUT))
        let salt = Data(hex: "000102030405060708090a0b0c"), info = Data(hex: "f0f1f2f3f4f5f6f7f8f9")
        #expect(secret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: info, outputByteCount: 42)
                == HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 42))
        #expect(secret.hkdfDerivedSymmetricKey(using: SHA512.self, salt: Data(), sharedInfo: Data(), outputByteCount: 64)
                == HKDF<SHA512>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 64))
        // The extract step by hand (HMAC with the salt as key), then expand: RFC 5869 §2.2–2.3.
        let prk = HMAC<SHA384>.authenticationCode(for: Data(hex: v.zIUT), using: SymmetricKey(data: salt))
        #expect(secret.hkdfDerivedSymmetricKey(using: SHA384.self, salt: salt, sharedInfo: info, outputByteCount: 48)
                == HKDF<SHA384>.expand(pseudoRandomKey: prk, info: info, outputByteCount: 48))
    }
}
