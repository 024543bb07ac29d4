import Foundation
import LatchkeyCrypto
import Testing

/// RFC 9180 Appendix A (Vectors/rfc9180-test-vectors.json: all 28 vectors, the seven ciphersuites of A.1–A.7 in each
/// of the four modes), through CryptoKit's public HPKE API, and the API's behaviour for every ciphersuite it offers.
struct HPKEVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Encryption: Decodable, Sendable {
        var sequenceNumber: Int
        var pt: String
        var aad: String
        var ct: String
        enum CodingKeys: String, CodingKey { case sequenceNumber = "sequence_number", pt, aad, ct }
    }

    struct Export: Decodable, Sendable {
        var context: String
        var length: Int
        var value: String
        enum CodingKeys: String, CodingKey { case context = "exporter_context", length = "L", value = "exported_value" }
    }

    var suite: String
    var setup: String
    var mode: Int
    var kemID: Int
    var kdfID: Int
    var aeadID: Int
    var info: String
    var skRm: String
    var pkRm: String
    var skEm: String
    var pkEm: String
    var enc: String
    var skSm: String?
    var pkSm: String?
    var psk: String?
    var pskID: String?
    var encryptions: [Encryption]
    var exports: [Export]

    enum CodingKeys: String, CodingKey {
        case suite, setup, mode, kemID = "kem_id", kdfID = "kdf_id", aeadID = "aead_id", info, skRm, pkRm, skEm, pkEm, enc,
             skSm, pkSm, psk, pskID = "psk_id", encryptions, exports
    }

    var testDescription: String { "\(suite) \(setup)" }

    static let all: [HPKEVector] = {
        guard let url = Bundle.module.url(forResource: "rfc9180-test-vectors", withExtension: "json", subdirectory: "Vectors"),
              let data = try? Data(contentsOf: url),
              let vectors = try? JSONDecoder().decode([HPKEVector].self, from: data) else { return [] }
        return vectors
    }()

    static func bytes(_ hex: String) -> Data { Data(hexString: hex) ?? Data([0xFF]) }

    var ciphersuite: HPKE.Ciphersuite {
        let kem: HPKE.KEM = switch kemID {
        case 0x10: .P256_HKDF_SHA256
        case 0x11: .P384_HKDF_SHA384
        case 0x12: .P521_HKDF_SHA512
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

    var presharedKey: (SymmetricKey, Data)? {
        guard let psk, let pskID else { return nil }
        return (SymmetricKey(data: Self.bytes(psk)), Self.bytes(pskID))
    }

    /// The recipient's context for this vector, through the public initializer of its mode.
    func recipient<SK: HPKEDiffieHellmanPrivateKey>(_ privateKey: SK, sender: SK.PublicKey?) throws -> HPKE.Recipient {
        let info = Self.bytes(info), enc = Self.bytes(enc)
        switch (sender, presharedKey) {
        case (nil, nil):
            return try HPKE.Recipient(privateKey: privateKey, ciphersuite: ciphersuite, info: info, encapsulatedKey: enc)
        case (nil, let (psk, id)?):
            return try HPKE.Recipient(privateKey: privateKey, ciphersuite: ciphersuite, info: info, encapsulatedKey: enc,
                                      presharedKey: psk, presharedKeyIdentifier: id)
        case (let sender?, nil):
            return try HPKE.Recipient(privateKey: privateKey, ciphersuite: ciphersuite, info: info, encapsulatedKey: enc,
                                      authenticatedBy: sender)
        case (let sender?, let (psk, id)?):
            return try HPKE.Recipient(privateKey: privateKey, ciphersuite: ciphersuite, info: info, encapsulatedKey: enc,
                                      authenticatedBy: sender, presharedKey: psk, presharedKeyIdentifier: id)
        }
    }
}

/// The key-agreement key type of each KEM, for tests generic over the curve.
enum HPKETestKeys {
    /// Runs `body` with the vector's KEM's private-key type (nil for a KEM the vectors do not use).
    static func withKeyType<R>(kemID: Int, _ body: (any HPKEDiffieHellmanPrivateKeyGeneration.Type) throws -> R) rethrows -> R? {
        switch kemID {
        case 0x10: try body(P256.KeyAgreement.PrivateKey.self)
        case 0x11: try body(P384.KeyAgreement.PrivateKey.self)
        case 0x12: try body(P521.KeyAgreement.PrivateKey.self)
        case 0x20: try body(Curve25519.KeyAgreement.PrivateKey.self)
        default: nil
        }
    }

    static func privateKey<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_: SK.Type, raw: Data) throws -> SK {
        switch SK.self {
        case let type as P256.KeyAgreement.PrivateKey.Type: try type.init(rawRepresentation: raw) as! SK
        case let type as P384.KeyAgreement.PrivateKey.Type: try type.init(rawRepresentation: raw) as! SK
        case let type as P521.KeyAgreement.PrivateKey.Type: try type.init(rawRepresentation: raw) as! SK
        default: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw) as! SK
        }
    }
}

@Suite struct HPKEVectorTests {
    @Test func everyVectorOfAppendixAIsRead() {
        #expect(HPKEVector.all.count == 28)
        #expect(Set(HPKEVector.all.map(\.mode)) == [0, 1, 2, 3])
        #expect(Set(HPKEVector.all.map { "\($0.kemID)/\($0.kdfID)/\($0.aeadID)" }).count == 7)
    }

    /// The recipient side through the public API: the keys serialize as the vector says, the first consecutive
    /// ciphertexts (sequence numbers 0, 1, 2) open to the plaintext, and every export matches. (Later sequence
    /// numbers need the messages before them, which the RFC does not list: the sender test below covers them.)
    @Test(arguments: HPKEVector.all)
    func recipientOpensAndExports(_ vector: HPKEVector) throws {
        try #require(HPKETestKeys.withKeyType(kemID: vector.kemID) { type in try Self.check(vector, type) } != nil)
    }

    static func check<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_ vector: HPKEVector, _ type: SK.Type) throws {
        let suite = vector.ciphersuite
        let recipientKey = try HPKETestKeys.privateKey(type, raw: HPKEVector.bytes(vector.skRm))
        #expect(try recipientKey.publicKey.hpkeRepresentation(kem: suite.kem) == HPKEVector.bytes(vector.pkRm))
        let ephemeral = try HPKETestKeys.privateKey(type, raw: HPKEVector.bytes(vector.skEm))
        #expect(try ephemeral.publicKey.hpkeRepresentation(kem: suite.kem) == HPKEVector.bytes(vector.enc))
        var sender: SK.PublicKey?
        if let skSm = vector.skSm, let pkSm = vector.pkSm {
            let key = try HPKETestKeys.privateKey(type, raw: HPKEVector.bytes(skSm))
            #expect(try key.publicKey.hpkeRepresentation(kem: suite.kem) == HPKEVector.bytes(pkSm))
            sender = try SK.PublicKey(HPKEVector.bytes(pkSm), kem: suite.kem)
        }
        var recipient = try vector.recipient(recipientKey, sender: sender)
        for (expected, encryption) in vector.encryptions.enumerated() where encryption.sequenceNumber == expected {
            let opened = try recipient.open(HPKEVector.bytes(encryption.ct), authenticating: HPKEVector.bytes(encryption.aad))
            #expect(opened == HPKEVector.bytes(encryption.pt), "sequence number \(expected)")
        }
        for export in vector.exports {
            let secret = try recipient.exportSecret(context: HPKEVector.bytes(export.context), outputByteCount: export.length)
            #expect(secret == SymmetricKey(data: HPKEVector.bytes(export.value)), "export of \(export.context)")
        }
    }
}

/// A KEM as a test argument (`HPKE.KEM` is `Sendable` only from the iOS 18.4 SDK).
enum HPKEKEMChoice: String, CaseIterable, Sendable {
    case p256, p384, p521, x25519

    var kem: HPKE.KEM {
        switch self {
        case .p256: .P256_HKDF_SHA256
        case .p384: .P384_HKDF_SHA384
        case .p521: .P521_HKDF_SHA512
        case .x25519: .Curve25519_HKDF_SHA256
        }
    }

    var keyType: any HPKEDiffieHellmanPrivateKeyGeneration.Type {
        switch self {
        case .p256: P256.KeyAgreement.PrivateKey.self
        case .p384: P384.KeyAgreement.PrivateKey.self
        case .p521: P521.KeyAgreement.PrivateKey.self
        case .x25519: Curve25519.KeyAgreement.PrivateKey.self
        }
    }
}

/// The public API's behaviour for every KEM × KDF × AEAD Apple offers, in every mode.
@Suite struct HPKEBehaviourTests {
    static let modes = ["base", "psk", "auth", "authPSK"]

    struct Pair<SK: HPKEDiffieHellmanPrivateKeyGeneration> {
        var sender: HPKE.Sender
        var recipient: HPKE.Recipient
    }

    /// A sender and its recipient in `mode`.
    static func pair<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_: SK.Type, _ suite: HPKE.Ciphersuite, mode: String,
                                                                info: Data = Data("info".utf8)) throws -> Pair<SK> {
        let recipientKey = SK()
        let senderKey = SK()
        let psk = SymmetricKey(size: .bits256), pskID = Data("id".utf8)
        let sender: HPKE.Sender
        switch mode {
        case "psk":
            sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info, presharedKey: psk,
                                     presharedKeyIdentifier: pskID)
        case "auth":
            sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info,
                                     authenticatedBy: senderKey)
        case "authPSK":
            sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info,
                                     authenticatedBy: senderKey, presharedKey: psk, presharedKeyIdentifier: pskID)
        default:
            sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: info)
        }
        let enc = sender.encapsulatedKey
        let recipient: HPKE.Recipient = switch mode {
        case "psk":
            try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc,
                               presharedKey: psk, presharedKeyIdentifier: pskID)
        case "auth":
            try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc,
                               authenticatedBy: senderKey.publicKey)
        case "authPSK":
            try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc,
                               authenticatedBy: senderKey.publicKey, presharedKey: psk, presharedKeyIdentifier: pskID)
        default:
            try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: enc)
        }
        return Pair(sender: sender, recipient: recipient)
    }

    /// Every KDF and AEAD with `kem`, in every mode: messages open in order with their associated data, both sides
    /// export the same secrets, and an export-only context refuses to seal.
    @Test(arguments: HPKEKEMChoice.allCases, modes)
    func roundTripsInEveryCiphersuite(_ choice: HPKEKEMChoice, mode: String) throws {
        let kem = choice.kem
        func run<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_ type: SK.Type) throws {
            for kdf in HPKE.KDF.allCases {
                for aead in HPKE.AEAD.allCases {
                    let suite = HPKE.Ciphersuite(kem: kem, kdf: kdf, aead: aead)
                    var pair = try Self.pair(type, suite, mode: mode)
                    let exported = try pair.sender.exportSecret(context: Data("ctx".utf8), outputByteCount: 42)
                    #expect(try pair.recipient.exportSecret(context: Data("ctx".utf8), outputByteCount: 42) == exported)
                    #expect(exported.bitCount == 42 * 8)
                    if aead == .exportOnly {
                        #expect(throws: HPKE.Errors.exportOnlyMode) { try pair.sender.seal(Data("m".utf8)) }
                        #expect(throws: HPKE.Errors.exportOnlyMode) { try pair.recipient.open(Data(count: 32)) }
                        continue
                    }
                    for index in 0..<3 {
                        let message = Data("message \(index)".utf8), aad = Data("aad \(index)".utf8)
                        let sealed = try pair.sender.seal(message, authenticating: aad)
                        #expect(sealed.count == message.count + 16)
                        #expect(try pair.recipient.open(sealed, authenticating: aad) == message, "\(suite.kdf) \(aead)")
                    }
                }
            }
        }
        try run(choice.keyType)
    }

    /// Whether `body` throws `CryptoKitError.authenticationFailure` (matched by its case: `CryptoKitError` is
    /// `Equatable` only from iOS 17.4, above the package's floor).
    static func failsAuthentication(_ body: () throws -> Data) -> Bool {
        do {
            _ = try body()
            return false
        } catch CryptoKitError.authenticationFailure {
            return true
        } catch {
            return false
        }
    }

    @Test func suitesAppleNames() {
        #expect(HPKE.Ciphersuite.P256_SHA256_AES_GCM_256.kem == .P256_HKDF_SHA256)
        #expect(HPKE.Ciphersuite.P256_SHA256_AES_GCM_256.aead == .AES_GCM_256)
        #expect(HPKE.Ciphersuite.P384_SHA384_AES_GCM_256.kdf == .HKDF_SHA384)
        #expect(HPKE.Ciphersuite.P521_SHA512_AES_GCM_256.kem == .P521_HKDF_SHA512)
        #expect(HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly.aead == .chaChaPoly)
        #expect(HPKE.KEM.allCases.count == HPKEKEMChoice.allCases.count && HPKE.KDF.allCases.count == 3
            && HPKE.AEAD.allCases.count == 4)
    }

    @Test func aKeyOfAnotherCurveIsRefused() throws {
        let p256 = P256.KeyAgreement.PrivateKey()
        #expect(throws: HPKE.Errors.inconsistentCiphersuiteAndKey) {
            try HPKE.Sender(recipientKey: p256.publicKey, ciphersuite: .Curve25519_SHA256_ChachaPoly, info: Data())
        }
        #expect(throws: HPKE.Errors.inconsistentCiphersuiteAndKey) {
            try HPKE.Recipient(privateKey: p256, ciphersuite: .P384_SHA384_AES_GCM_256, info: Data(),
                               encapsulatedKey: p256.publicKey.x963Representation)
        }
        #expect(throws: HPKE.Errors.inconsistentCiphersuiteAndKey) { try p256.publicKey.hpkeRepresentation(kem: .P521_HKDF_SHA512) }
        #expect(throws: HPKE.Errors.inconsistentCiphersuiteAndKey) {
            try Curve25519.KeyAgreement.PublicKey(Data(count: 32), kem: .P256_HKDF_SHA256)
        }
        // The NIST curves serialize uncompressed (04‖x‖y), X25519 as its 32 bytes.
        #expect(try p256.publicKey.hpkeRepresentation(kem: .P256_HKDF_SHA256) == p256.publicKey.x963Representation)
        let x25519 = Curve25519.KeyAgreement.PrivateKey()
        #expect(try x25519.publicKey.hpkeRepresentation(kem: .Curve25519_HKDF_SHA256) == x25519.publicKey.rawRepresentation)
        let decoded = try P521.KeyAgreement.PublicKey(P521.KeyAgreement.PrivateKey().publicKey.x963Representation,
                                                      kem: .P521_HKDF_SHA512)
        #expect(try decoded.hpkeRepresentation(kem: .P521_HKDF_SHA512).count == 133)
    }

    /// RFC 9180 §5.1's `VerifyPSKInputs`, with empty as "not given" (the RFC's defaults are empty strings).
    @Test func preSharedKeyInputsAreChecked() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        let suite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly
        #expect(throws: HPKE.Errors.inconsistentPSKInputs) {
            try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: suite, info: Data(),
                            presharedKey: SymmetricKey(size: .bits256), presharedKeyIdentifier: Data())
        }
        #expect(throws: HPKE.Errors.inconsistentPSKInputs) {
            try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: suite, info: Data(),
                            presharedKey: SymmetricKey(data: Data()), presharedKeyIdentifier: Data("id".utf8))
        }
        #expect(throws: HPKE.Errors.expectedPSK) {
            try HPKE.Sender(recipientKey: key.publicKey, ciphersuite: suite, info: Data(),
                            presharedKey: SymmetricKey(data: Data()), presharedKeyIdentifier: Data())
        }
    }

    @Test func openingRefusesWhatWasNotSealedSo() throws {
        var pair = try Self.pair(P256.KeyAgreement.PrivateKey.self, .P256_SHA256_AES_GCM_256, mode: "base")
        #expect(throws: HPKE.Errors.ciphertextTooShort) { try pair.recipient.open(Data(count: 15)) }
        let first = try pair.sender.seal(Data("one".utf8), authenticating: Data("a".utf8))
        let second = try pair.sender.seal(Data("two".utf8))
        // Out of order: the second message under the first nonce.
        #expect(Self.failsAuthentication { try pair.recipient.open(second) })
        // Other associated data, then a flipped byte.
        #expect(Self.failsAuthentication { try pair.recipient.open(first, authenticating: Data("b".utf8)) })
        var tampered = first
        tampered[0] ^= 1
        #expect(Self.failsAuthentication { try pair.recipient.open(tampered, authenticating: Data("a".utf8)) })
        // A failed open does not advance the context.
        #expect(try pair.recipient.open(first, authenticating: Data("a".utf8)) == Data("one".utf8))
        #expect(try pair.recipient.open(second) == Data("two".utf8))
    }

    @Test func authModeNeedsTheSendersKey() throws {
        let recipientKey = P384.KeyAgreement.PrivateKey(), senderKey = P384.KeyAgreement.PrivateKey()
        let suite = HPKE.Ciphersuite.P384_SHA384_AES_GCM_256
        var sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: Data(),
                                     authenticatedBy: senderKey)
        let sealed = try sender.seal(Data("hello".utf8))
        var impostor = try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: Data(),
                                          encapsulatedKey: sender.encapsulatedKey,
                                          authenticatedBy: P384.KeyAgreement.PrivateKey().publicKey)
        #expect(Self.failsAuthentication { try impostor.open(sealed) })
        var base = try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: Data(),
                                      encapsulatedKey: sender.encapsulatedKey)
        #expect(Self.failsAuthentication { try base.open(sealed) })
    }

    @Test func exportsOfAnotherContextOrLengthDiffer() throws {
        let pair = try Self.pair(Curve25519.KeyAgreement.PrivateKey.self, .Curve25519_SHA256_ChachaPoly, mode: "base")
        let a = try pair.sender.exportSecret(context: Data("a".utf8), outputByteCount: 32)
        #expect(try pair.sender.exportSecret(context: Data("b".utf8), outputByteCount: 32) != a)
        // An export longer than 255 × the hash length cannot be derived.
        do {
            _ = try pair.sender.exportSecret(context: Data(), outputByteCount: 255 * 32 + 1)
            Issue.record("an export of 8161 bytes was derived")
        } catch CryptoKitError.incorrectParameterSize {
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
