// HPKE (RFC 9180) through CryptoKit's public API: one vector of each of the seven ciphersuites of RFC 9180
// Appendix A (A.1–A.7), the four modes among them (base, PSK, auth, auth PSK). The recipient's key opens the first two
// messages (sequence numbers 0 and 1; later ones need the messages in between, which the RFC does not print) and
// derives the vector's export. Apple's API draws the sender's ephemeral key at random, so the sender side is checked
// by round trips; the root package's LatchkeyCryptoTests pins all 28 vectors from both sides.
import CryptoKit
import Foundation
import Testing

struct HPKEVector: Sendable, CustomTestStringConvertible {
    let section: String
    /// The RFC's `kem_id`, `kdf_id` and `aead_id` (`HPKE.Ciphersuite` is `Sendable` only from the iOS 18.4 SDK).
    let kemID: Int
    let kdfID: Int
    let aeadID: Int
    let skRm: String
    let pkSm: String?
    let psk: String?
    let pskID: String?
    let info: String
    let enc: String
    let pt: String
    let aads: [String]
    let ciphertexts: [String]
    let exporterContext: String
    let exportLength: Int
    let exported: String
    var testDescription: String { "RFC 9180 \(section)" }

    var ciphersuite: HPKE.Ciphersuite {
        let kem: HPKE.KEM = switch kemID {
        case 0x0010: .P256_HKDF_SHA256
        case 0x0011: .P384_HKDF_SHA384
        case 0x0012: .P521_HKDF_SHA512
        default: .Curve25519_HKDF_SHA256
        }
        let kdf: HPKE.KDF = switch kdfID {
        case 2: .HKDF_SHA384
        case 3: .HKDF_SHA512
        default: .HKDF_SHA256
        }
        let aead: HPKE.AEAD = switch aeadID {
        case 1: .AES_GCM_128
        case 2: .AES_GCM_256
        case 3: .chaChaPoly
        default: .exportOnly
        }
        return HPKE.Ciphersuite(kem: kem, kdf: kdf, aead: aead)
    }
}

@Suite("HPKE: RFC 9180 Appendix A")
struct HPKEVectorTests {
    static let vectors: [HPKEVector] = [
        HPKEVector(section: "A.1.1 Base",
                   kemID: 0x0020, kdfID: 1, aeadID: 1,
                   skRm: "4612c550263fc8ad58375df3f557aac531d26850903e55a9f23f21d8534e8ac8",
                   pkSm: nil,
                   psk: nil,
                   pskID: nil,
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc: "37fda3567bdbd628e88668c3c8d7e97d1d1253b6d4ea6d44c150f741f1bf4431",
                   pt: "4265617574792069732074727574682c20747275746820626561757479",
                   aads: ["436f756e742d30", "436f756e742d31"],
                   ciphertexts: ["f938558b5d72f1a23810b4be2ab4f84331acc02fc97babc53a52ae8218a355a96d8770ac83d07bea"
                       + "87e13c512a",
                       "af2d7e9ac9ae7e270f46ba1f975be53c09f8d875bdc8535458c2494e8a6eab251c03d0c22a56b8ca"
                       + "42c2063b84"],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "e9e43065102c3836401bed8c3c3c75ae46be1639869391d62c61f1ec7af54931"),
        HPKEVector(section: "A.2.2 PSK",
                   kemID: 0x0020, kdfID: 1, aeadID: 3,
                   skRm: "77d114e0212be51cb1d76fa99dd41cfd4d0166b08caa09074430a6c59ef17879",
                   pkSm: nil,
                   psk: "0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82",
                   pskID: "456e6e796e20447572696e206172616e204d6f726961",
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc: "2261299c3f40a9afc133b969a97f05e95be2c514e54f3de26cbe5644ac735b04",
                   pt: "4265617574792069732074727574682c20747275746820626561757479",
                   aads: ["436f756e742d30", "436f756e742d31"],
                   ciphertexts: ["4a177f9c0d6f15cfdf533fb65bf84aecdc6ab16b8b85b4cf65a370e07fc1d78d28fb073214525276"
                       + "f4a89608ff",
                       "5c3cabae2f0b3e124d8d864c116fd8f20f3f56fda988c3573b40b09997fd6c769e77c8eda6cda4f9"
                       + "47f5b704a8"],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "ad40e3ae14f21c99bfdebc20ae14ab86f4ca2dc9a4799d200f43a25f99fa78ae"),
        HPKEVector(section: "A.3.3 Auth",
                   kemID: 0x0010, kdfID: 1, aeadID: 1,
                   skRm: "d929ab4be2e59f6954d6bedd93e638f02d4046cef21115b00cdda2acb2a4440e",
                   pkSm:
                       "04a817a0902bf28e036d66add5d544cc3a0457eab150f104285df1e293b5c10eef8651213e43d9cd"
                       + "9086c80b309df22cf37609f58c1127f7607e85f210b2804f73",
                   psk: nil,
                   pskID: nil,
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc:
                       "042224f3ea800f7ec55c03f29fc9865f6ee27004f818fcbdc6dc68932c1e52e15b79e264a98f2c53"
                       + "5ef06745f3d308624414153b22c7332bc1e691cb4af4d53454",
                   pt: "4265617574792069732074727574682c20747275746820626561757479",
                   aads: ["436f756e742d30", "436f756e742d31"],
                   ciphertexts: ["82ffc8c44760db691a07c5627e5fc2c08e7a86979ee79b494a17cc3405446ac2bdb8f265db4a099e"
                       + "d3289ffe19",
                       "b0a705a54532c7b4f5907de51c13dffe1e08d55ee9ba59686114b05945494d96725b239468f1229e"
                       + "3966aa1250"],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "14fe634f95ca0d86e15247cca7de7ba9b73c9b9deb6437e1c832daf7291b79d5"),
        HPKEVector(section: "A.4.4 AuthPSK",
                   kemID: 0x0010, kdfID: 3, aeadID: 1,
                   skRm: "00510a70fde67af487c093234fc4215c1cdec09579c4b30cc8e48cb530414d0e",
                   pkSm:
                       "04b59a4157a9720eb749c95f842a5e3e8acdccbe834426d405509ac3191e23f2165b5bb1f07a6240"
                       + "dd567703ae75e13182ee0f69fc102145cdb5abf681ff126d60",
                   psk: "0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82",
                   pskID: "456e6e796e20447572696e206172616e204d6f726961",
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc:
                       "04801740f4b1b35823f7fb2930eac2efc8c4893f34ba111c0bb976e3c7d5dc0aef5a7ef0bf405794"
                       + "9a140285f774f1efc53b3860936b92279a11b68395d898d138",
                   pt: "4265617574792069732074727574682c20747275746820626561757479",
                   aads: ["436f756e742d30", "436f756e742d31"],
                   ciphertexts: ["840669634db51e28df54f189329c1b727fd303ae413f003020aff5e26276aaa910fc4296828cb9d8"
                       + "62c2fd7d16",
                       "d4680a48158d9a75fd09355878d6e33997a36ee01d4a8f22032b22373b795a941b7b9c5205ff99e0"
                       + "ff284beef4"],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "bed80f2e54f1285895c4a3f3b3625e6206f78f1ed329a0cfb5864f7c139b3c6a"),
        HPKEVector(section: "A.5.1 Base",
                   kemID: 0x0010, kdfID: 1, aeadID: 3,
                   skRm: "a4d1c55836aa30f9b3fbb6ac98d338c877c2867dd3a77396d13f68d3ab150d3b",
                   pkSm: nil,
                   psk: nil,
                   pskID: nil,
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc:
                       "04c07836a0206e04e31d8ae99bfd549380b072a1b1b82e563c935c095827824fc1559eac6fb9e3c7"
                       + "0cd3193968994e7fe9781aa103f5b50e934b5b2f387e381291",
                   pt: "4265617574792069732074727574682c20747275746820626561757479",
                   aads: ["436f756e742d30", "436f756e742d31"],
                   ciphertexts: ["6469c41c5c81d3aa85432531ecf6460ec945bde1eb428cb2fedf7a29f5a685b4ccb0d057f03ea295"
                       + "2a27bb458b",
                       "f1564199f7e0e110ec9c1bcdde332177fc35c1adf6e57f8d1df24022227ffa8716862dbda2b1dc54"
                       + "6c9d114374"],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "477a50d804c7c51941f69b8e32fe8288386ee1a84905fe4938d58972f24ac938"),
        HPKEVector(section: "A.6.3 Auth",
                   kemID: 0x0012, kdfID: 3, aeadID: 2,
                   skRm:
                       "013ef326940998544a899e15e1726548ff43bbdb23a8587aa3bef9d1b857338d87287df5667037b5"
                       + "19d6a14661e9503cfc95a154d93566d8c84e95ce93ad05293a0b",
                   pkSm:
                       "04015cc3636632ea9a3879e43240beae5d15a44fba819282fac26a19c989fafdd0f330b8521dff7d"
                       + "c393101b018c1e65b07be9f5fc9a28a1f450d6a541ee0d76221133001e8f0f6a05ab79f9b9bb9ccc"
                       + "e142a453d59c5abebb5674839d935a3ca1a3fbc328539a60b3bc3c05fed22838584a726b9c176796"
                       + "cad0169ba4093332cbd2dc3a9f",
                   psk: nil,
                   pskID: nil,
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc:
                       "04017de12ede7f72cb101dab36a111265c97b3654816dcd6183f809d4b3d111fe759497f8aefdc5d"
                       + "bb40d3e6d21db15bdc60f15f2a420761bcaeef73b891c2b117e9cf01e29320b799bbc86afdc5ea97"
                       + "d941ea1c5bd5ebeeac7a784b3bab524746f3e640ec26ee1bd91255f9330d974f845084637ee0e6fe"
                       + "9f505c5b87c86a4e1a6c3096dd",
                   pt: "4265617574792069732074727574682c20747275746820626561757479",
                   aads: ["436f756e742d30", "436f756e742d31"],
                   ciphertexts: ["0116aeb3a1c405c61b1ce47600b7ecd11d89b9c08c408b7e2d1e00a4d64696d12e6881dc61688209"
                       + "a8207427f9",
                       "37ece0cf6741f443e9d73b9966dc0b228499bb21fbf313948327231e70a18380e080529c0267f399"
                       + "ba7c539cc6"],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "620b176d737cf366bcc20d96adb54ec156978220879b67923689e6dca36210ed"),
        HPKEVector(section: "A.7.4 AuthPSK",
                   kemID: 0x0020, kdfID: 1, aeadID: 0xFFFF,
                   skRm: "c4962a7f97d773a47bdf40db4b01dc6a56797c9e0deaab45f4ea3aa9b1d72904",
                   pkSm: "29a5bf3867a6128bbdf8e070abe7fe70ca5e07b629eba5819af73810ee20112f",
                   psk: "0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82",
                   pskID: "456e6e796e20447572696e206172616e204d6f726961",
                   info: "4f6465206f6e2061204772656369616e2055726e",
                   enc: "81cbf4bd7eee97dd0b600252a1c964ea186846252abb340be47087cc78f3d87c",
                   pt: "",
                   aads: [],
                   ciphertexts: [],
                   exporterContext: "54657374436f6e74657874",
                   exportLength: 32,
                   exported: "84f3466bd5a03bde6444324e63d7560e7ac790da4e5bbab01e7c4d575728c34a")
    ]

    /// The recipient for `vector`, in the mode its inputs name.
    static func recipient<SK: HPKEDiffieHellmanPrivateKey>(_ vector: HPKEVector, key: SK) throws -> HPKE.Recipient {
        let suite = vector.ciphersuite, info = Data(hex: vector.info), enc = Data(hex: vector.enc)
        let sender = try vector.pkSm.map { try SK.PublicKey(Data(hex: $0), kem: suite.kem) }
        switch (sender, vector.psk, vector.pskID) {
        case (let sender?, let psk?, let id?):
            return try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: info, encapsulatedKey: enc,
                                      authenticatedBy: sender, presharedKey: SymmetricKey(data: Data(hex: psk)),
                                      presharedKeyIdentifier: Data(hex: id))
        case (let sender?, _, _):
            return try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: info, encapsulatedKey: enc,
                                      authenticatedBy: sender)
        case (nil, let psk?, let id?):
            return try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: info, encapsulatedKey: enc,
                                      presharedKey: SymmetricKey(data: Data(hex: psk)), presharedKeyIdentifier: Data(hex: id))
        default:
            return try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: info, encapsulatedKey: enc)
        }
    }

    static func check<SK: HPKEDiffieHellmanPrivateKey>(_ vector: HPKEVector, key: SK) throws {
        var recipient = try recipient(vector, key: key)
        for (aad, ciphertext) in zip(vector.aads, vector.ciphertexts) {
            let opened = try recipient.open(Data(hex: ciphertext), authenticating: Data(hex: aad))
            #expect(opened.hex == vector.pt)
        }
        let secret = try recipient.exportSecret(context: Data(hex: vector.exporterContext),
                                                outputByteCount: vector.exportLength)
        #expect(secret.withUnsafeBytes { Data($0) }.hex == vector.exported)
    }

    @Test(arguments: vectors)
    func recipientOpensAndExports(_ vector: HPKEVector) throws {
        let raw = Data(hex: vector.skRm)
        switch vector.ciphersuite.kem {
        case .P256_HKDF_SHA256: try Self.check(vector, key: P256.KeyAgreement.PrivateKey(rawRepresentation: raw))
        case .P384_HKDF_SHA384: try Self.check(vector, key: P384.KeyAgreement.PrivateKey(rawRepresentation: raw))
        case .P521_HKDF_SHA512: try Self.check(vector, key: P521.KeyAgreement.PrivateKey(rawRepresentation: raw))
        case .Curve25519_HKDF_SHA256: try Self.check(vector, key: Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw))
        @unknown default: Issue.record("a KEM this test does not know")
        }
    }

    /// The sender side of every KEM with Apple's named ciphersuites: what one side seals the other opens, and both
    /// derive the same export.
    @Test func namedCiphersuitesRoundTrip() throws {
        func roundTrip<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_ key: SK, _ suite: HPKE.Ciphersuite) throws {
            let info = Data("app v1".utf8)
            var sender = try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: suite, info: info)
            var recipient = try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: info,
                                               encapsulatedKey: sender.encapsulatedKey)
            let sealed = try sender.seal(Data("note".utf8), authenticating: Data("header".utf8))
            #expect(try recipient.open(sealed, authenticating: Data("header".utf8)) == Data("note".utf8))
            #expect(try sender.exportSecret(context: Data(), outputByteCount: 32)
                == recipient.exportSecret(context: Data(), outputByteCount: 32))
        }
        try roundTrip(P256.KeyAgreement.PrivateKey(), .P256_SHA256_AES_GCM_256)
        try roundTrip(P384.KeyAgreement.PrivateKey(), .P384_SHA384_AES_GCM_256)
        try roundTrip(P521.KeyAgreement.PrivateKey(), .P521_SHA512_AES_GCM_256)
        try roundTrip(Curve25519.KeyAgreement.PrivateKey(), .Curve25519_SHA256_ChachaPoly)
    }
}
