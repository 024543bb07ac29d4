// The errors CryptoKit reports for bad input: wrong key and parameter sizes, bad nonces, truncated boxes, tampered
// ciphertext, tag or AAD, points off the curve, and ASN.1 / PEM documents of the wrong kind. The expected cases are
// Apple's (CryptoKit's documented `CryptoKitError` / `CryptoKitASN1Error` cases, as its own test suite pins them).
import CryptoKit
import Foundation
import Testing

@Suite("CryptoKitError and CryptoKitASN1Error on bad input")
struct ErrorCaseTests {
    @Test("AES-GCM: key sizes, nonces, truncated and tampered boxes")
    func aesGCM() throws {
        for bits in [0, 8, 64, 120, 136, 304, 512] {
            expectCryptoKitError(.incorrectKeySize) {
                try AES.GCM.seal(Data("x".utf8), using: SymmetricKey(data: Data(count: bits / 8)))
            }
        }
        for size in [0, 1, 11] {
            expectCryptoKitError(.incorrectParameterSize) { try AES.GCM.Nonce(data: Data(count: size)) }
        }
        expectCryptoKitError(.incorrectParameterSize) { try AES.GCM.SealedBox(combined: Data(count: 27)) }
        expectCryptoKitError(.incorrectParameterSize) {
            try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(), ciphertext: Data(count: 4), tag: Data(count: 15))
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(), ciphertext: Data(count: 4), tag: Data(count: 17))
        }
        // The smallest box (no ciphertext) is well formed, and fails authentication under a random key.
        let empty = try AES.GCM.SealedBox(combined: Data(count: 28))
        #expect(empty.ciphertext.isEmpty)
        expectCryptoKitError(.authenticationFailure) { try AES.GCM.open(empty, using: SymmetricKey(size: .bits128)) }

        let key = SymmetricKey(size: .bits256)
        let combined = try #require(try AES.GCM.seal(Data("attack at dawn".utf8), using: key, authenticating: Data("hdr".utf8))
            .combined)
        // Truncating the box moves the tag: authentication fails.
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(AES.GCM.SealedBox(combined: combined.dropLast()), using: key, authenticating: Data("hdr".utf8))
        }
        for index in combined.indices {
            var tampered = combined
            tampered[index] ^= 0x04
            expectCryptoKitError(.authenticationFailure) {
                try AES.GCM.open(AES.GCM.SealedBox(combined: tampered), using: key, authenticating: Data("hdr".utf8))
            }
        }
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key, authenticating: Data("HDR".utf8))
        }
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key)
        }
    }

    @Test("ChaChaPoly: key sizes, nonces, truncated and tampered boxes")
    func chaChaPoly() throws {
        for bytes in [0, 16, 24, 31, 33] {
            expectCryptoKitError(.incorrectKeySize) {
                try ChaChaPoly.seal(Data("x".utf8), using: SymmetricKey(data: Data(count: bytes)))
            }
        }
        for size in [0, 8, 11, 13, 24] {
            expectCryptoKitError(.incorrectParameterSize) { try ChaChaPoly.Nonce(data: Data(count: size)) }
        }
        expectCryptoKitError(.incorrectParameterSize) { try ChaChaPoly.SealedBox(combined: Data(count: 27)) }
        expectCryptoKitError(.incorrectParameterSize) {
            try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(), ciphertext: Data(), tag: Data(count: 12))
        }
        let key = SymmetricKey(size: .bits256)
        let sealed = try ChaChaPoly.seal(Data("attack at dawn".utf8), using: key, authenticating: Data("hdr".utf8))
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: sealed.combined.dropLast()), using: key,
                                authenticating: Data("hdr".utf8))
        }
        for index in sealed.combined.indices {
            var tampered = sealed.combined
            tampered[index] ^= 0x40
            expectCryptoKitError(.authenticationFailure) {
                try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: tampered), using: key, authenticating: Data("hdr".utf8))
            }
        }
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(sealed, using: SymmetricKey(size: .bits256), authenticating: Data("hdr".utf8))
        }
    }

    @Test("NIST public keys: wrong sizes, wrong prefixes, points off the curve")
    func publicKeys() throws {
        let good = KnownNISTKey.p256.x963Public
        expectCryptoKitError(.incorrectParameterSize) { try P256.Signing.PublicKey(x963Representation: good.dropLast()) }
        expectCryptoKitError(.incorrectParameterSize) { try P256.Signing.PublicKey(x963Representation: good + Data([0])) }
        expectCryptoKitError(.incorrectParameterSize) { try P256.Signing.PublicKey(rawRepresentation: good) }
        expectCryptoKitError(.incorrectParameterSize) {
            try P256.KeyAgreement.PublicKey(compressedRepresentation: good)
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try P384.KeyAgreement.PublicKey(compressedRepresentation: KnownNISTKey.p384.x963Public)
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try P521.KeyAgreement.PublicKey(compressedRepresentation: KnownNISTKey.p521.x963Public)
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try P256.Signing.PublicKey(compactRepresentation: Data(count: 33))
        }
        var wrongPrefix = good
        wrongPrefix[0] = 0x05
        expectCryptoKitError(.incorrectKeySize) { try P256.Signing.PublicKey(x963Representation: wrongPrefix) }
        var wrongCompressedPrefix = KnownNISTKey.p256.compressedPublic
        wrongCompressedPrefix[0] = 0x04
        expectCryptoKitError(.incorrectKeySize) {
            try P256.Signing.PublicKey(compressedRepresentation: wrongCompressedPrefix)
        }

        // Points that are not on the curve are refused, in every encoding.
        var offCurve = good
        offCurve[64] ^= 0x01
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(x963Representation: offCurve) }
        #expect(throws: (any Error).self) { try P256.KeyAgreement.PublicKey(rawRepresentation: offCurve.dropFirst()) }
        #expect(throws: (any Error).self) { try P256.KeyAgreement.PublicKey(rawRepresentation: Data(count: 64)) }
        var offCurveSPKI = der(ofPEM: KnownNISTKey.p256.spkiPEM)
        offCurveSPKI[offCurveSPKI.count - 1] ^= 0x01
        #expect(throws: (any Error).self) { try P256.KeyAgreement.PublicKey(derRepresentation: offCurveSPKI) }
        // x = 1 is not the x of a P-256 point (1 − 3 + b is not a square mod p).
        #expect(throws: (any Error).self) {
            try P256.KeyAgreement.PublicKey(compressedRepresentation: Data([0x02]) + Data(count: 31) + Data([1]))
        }
        #expect(throws: (any Error).self) {
            try P256.KeyAgreement.PublicKey(compactRepresentation: Data(count: 31) + Data([1]))
        }
    }

    @Test("NIST private keys: wrong sizes, scalars out of range, mismatched x9.63")
    func privateKeys() throws {
        let known = KnownNISTKey.p256
        expectCryptoKitError(.incorrectParameterSize) { try P256.Signing.PrivateKey(rawRepresentation: Data(count: 31)) }
        expectCryptoKitError(.incorrectParameterSize) { try P256.Signing.PrivateKey(rawRepresentation: Data(count: 33)) }
        expectCryptoKitError(.incorrectParameterSize) {
            try P384.KeyAgreement.PrivateKey(rawRepresentation: Data(hex: known.d))
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try P256.Signing.PrivateKey(x963Representation: known.x963Public + Data(hex: known.d).dropLast())
        }
        var wrongPrefix = known.x963Public + Data(hex: known.d)
        wrongPrefix[0] = 0x02
        expectCryptoKitError(.incorrectKeySize) { try P256.Signing.PrivateKey(x963Representation: wrongPrefix) }
        // Scalars 0 and n (the group order) are not private keys.
        let n = Data(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: Data(count: 32)) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: n) }
        // A scalar whose public point does not match the one written before it.
        let mismatched = KnownNISTKey.p256.x963Public + Data(count: 31) + Data([1])
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(x963Representation: mismatched) }
    }

    @Test("DER and PEM of the wrong kind or curve")
    func asn1() throws {
        let p256 = KnownNISTKey.p256, p384 = KnownNISTKey.p384
        // A public key of another curve: CryptoKit reports the size of its point.
        expectCryptoKitError(.incorrectParameterSize) { try P384.Signing.PublicKey(pemRepresentation: p256.spkiPEM) }
        expectCryptoKitError(.incorrectParameterSize) { try P521.KeyAgreement.PublicKey(pemRepresentation: p256.spkiPEM) }
        expectCryptoKitError(.incorrectParameterSize) {
            try P256.Signing.PublicKey(derRepresentation: der(ofPEM: p384.spkiPEM))
        }
        #expect(throws: (any Error).self) { try P384.Signing.PrivateKey(pemRepresentation: p256.pkcs8PEM) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(pemRepresentation: p384.sec1PEM) }

        // A public key where a private key is expected, and the other way round.
        #expect(throws: CryptoKitASN1Error.invalidPEMDocument) { try P256.Signing.PrivateKey(pemRepresentation: p256.spkiPEM) }
        #expect(throws: CryptoKitASN1Error.invalidPEMDocument) { try P256.Signing.PublicKey(pemRepresentation: p256.pkcs8PEM) }
        #expect(throws: CryptoKitASN1Error.invalidPEMDocument) { try P256.Signing.PublicKey(pemRepresentation: p256.sec1PEM) }
        #expect(throws: CryptoKitASN1Error.unexpectedFieldType) {
            try P256.Signing.PrivateKey(derRepresentation: der(ofPEM: p256.spkiPEM))
        }
        #expect(throws: CryptoKitASN1Error.unexpectedFieldType) {
            try P256.Signing.PublicKey(derRepresentation: der(ofPEM: p256.pkcs8PEM))
        }

        // RFC 5480 §2.1.1 allows only a named curve in SubjectPublicKeyInfo: the RFC 6979 P-256 key with explicit
        // curve parameters (as `openssl ec -param_enc explicit` writes it) is refused.
        let explicitParameters = """
            -----BEGIN PUBLIC KEY-----
            MIIBSzCCAQMGByqGSM49AgEwgfcCAQEwLAYHKoZIzj0BAQIhAP////8AAAABAAAA
            AAAAAAAAAAAA////////////////MFsEIP////8AAAABAAAAAAAAAAAAAAAA////
            ///////////8BCBaxjXYqjqT57PrvVV2mIa8ZR0GsMxTsPY7zjw+J9JgSwMVAMSd
            NgiG5wSTamZ44ROdJreBn36QBEEEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5
            RdiYwpZP40Li/hp/m47n60p8D54WK84zV2sxXs7LtkBoN79R9QIhAP////8AAAAA
            //////////+85vqtpxeehPO5ysL8YyVRAgEBA0IABGD+1LolWp0xyWHrdMY1bWjA
            SbiSO2H6bOZpYi5g8p+2eQP+EAi4vJmkGunpVii8ZPLxsgwtfp9Rd6PClNRGIpk=
            -----END PUBLIC KEY-----
            """
        #expect(throws: (any Error).self) { try P256.KeyAgreement.PublicKey(pemRepresentation: explicitParameters) }
        #expect(throws: (any Error).self) {
            try P256.Signing.PublicKey(derRepresentation: der(ofPEM: explicitParameters))
        }

        // Not PEM at all, or broken PEM.
        #expect(throws: CryptoKitASN1Error.invalidPEMDocument) { try P256.Signing.PublicKey(pemRepresentation: "") }
        #expect(throws: CryptoKitASN1Error.invalidPEMDocument) {
            try P256.Signing.PublicKey(pemRepresentation: "-----BEGIN PUBLIC KEY-----\nMFkw\n")
        }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: Data()) }
        #expect(throws: (any Error).self) { try P256.Signing.PublicKey(derRepresentation: der(ofPEM: p256.spkiPEM).dropLast()) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(derRepresentation: Data([0x30, 0x00])) }
    }

    @Test("HMAC codes and digests compare false against other lengths")
    func lengths() {
        let key = SymmetricKey(size: .bits256)
        let code = HMAC<SHA256>.authenticationCode(for: Data("m".utf8), using: key)
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(Data(code).dropLast(), authenticating: Data("m".utf8), using: key))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(Data(), authenticating: Data("m".utf8), using: key))
        #expect(!(SHA256.hash(data: Data()) == Data()))
    }
}
