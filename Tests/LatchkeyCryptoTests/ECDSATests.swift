import Foundation
import Testing
@testable import LatchkeyCrypto

@Suite struct ECDSATests {
    let message = Data("The quick brown fox jumps over the lazy dog".utf8)

    @Test func p256SignVerifyRoundTrip() throws {
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: message)
        #expect(signature.rawRepresentation.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(key.publicKey.isValidSignature(signature, for: [UInt8](message)))
        #expect(!key.publicKey.isValidSignature(signature, for: message.dropLast()))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: message))
    }

    @Test func p384SignVerifyRoundTrip() throws {
        let key = P384.Signing.PrivateKey()
        let signature = try key.signature(for: message)
        #expect(signature.rawRepresentation.count == 96)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Data()))
        #expect(!P384.Signing.PrivateKey().publicKey.isValidSignature(signature, for: message))
    }

    @Test func flippedBitsInSignatureOrMessageFail() throws {
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: message)
        for index in [0, 31, 32, 63] {
            var raw = signature.rawRepresentation
            raw[raw.startIndex + index] ^= 0x01
            #expect(!key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: raw), for: message))
        }
        var tampered = message
        tampered[5] ^= 0x80
        #expect(!key.publicKey.isValidSignature(signature, for: tampered))
    }

    @Test func rawAndDERSignatureFormsAgree() throws {
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: message)
        let fromDER = try P256.Signing.ECDSASignature(derRepresentation: signature.derRepresentation)
        let fromRaw = try P256.Signing.ECDSASignature(rawRepresentation: signature.rawRepresentation)
        #expect(sameEncoding(fromDER, signature) && sameEncoding(fromRaw, signature))
        #expect(fromRaw.derRepresentation == signature.derRepresentation)
        #expect(key.publicKey.isValidSignature(fromDER, for: message))
    }

    @Test func wrongLengthRawSignaturesAreRejected() {
        for length in [0, 63, 65, 96, 128] {
            #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(rawRepresentation: Data(count: length)) }
        }
        expectCryptoKitError(.incorrectParameterSize) { try P384.Signing.ECDSASignature(rawRepresentation: Data(count: 64)) }
    }

    @Test func garbageAndNonCanonicalDERIsRejected() throws {
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: Data()) }
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: Data([0x30, 0x02, 0x05, 0x00])) }
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: Data(repeating: 0xff, count: 70)) }
        let good = try P256.Signing.PrivateKey().signature(for: message).derRepresentation
        // Trailing byte.
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: good + Data([0])) }
        // Truncated.
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: good.dropLast()) }
        // r with a superfluous leading zero (non-minimal INTEGER): 30 len 02 21 00 <r> ...
        let r = Data(repeating: 0x11, count: 32), s = Data(repeating: 0x22, count: 32)
        var padded = Data([0x30, 0x45, 0x02, 0x21, 0x00]) + r
        padded += Data([0x02, 0x20]) + s
        #expect(throws: (any Error).self) { try P256.Signing.ECDSASignature(derRepresentation: padded) }
        let minimal = Data([0x30, 0x44, 0x02, 0x20]) + r + Data([0x02, 0x20]) + s
        #expect(try P256.Signing.ECDSASignature(derRepresentation: minimal).rawRepresentation == r + s)
    }

    /// s ≥ n (here all ones) and r = s = 0 never verify. The malleated twin (r, n − s) is an ECDSA-valid
    /// signature of the same message: OpenSSL and CryptoKit accept it, and so do we (Apple's Secure Enclave
    /// and many authenticators emit high-S signatures), so this is documented, not rejected.
    @Test func outOfRangeScalarsDoNotVerify() throws {
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: message)
        let r = signature.rawRepresentation.prefix(32)
        let highS = try P256.Signing.ECDSASignature(rawRepresentation: r + Data(repeating: 0xff, count: 32))
        #expect(!key.publicKey.isValidSignature(highS, for: message))
        let highR = try P256.Signing.ECDSASignature(rawRepresentation: Data(repeating: 0xff, count: 32) + signature.rawRepresentation.suffix(32))
        #expect(!key.publicKey.isValidSignature(highR, for: message))
        let zero = try P256.Signing.ECDSASignature(rawRepresentation: Data(count: 64))
        #expect(!key.publicKey.isValidSignature(zero, for: message))
    }

    @Test func privateKeyDescriptionHidesTheScalar() throws {
        let key = P256.Signing.PrivateKey()
        let scalarHex = key.rawRepresentation.hexString
        #expect(!String(describing: key).contains(scalarHex))
        #expect(!String(reflecting: key).contains(scalarHex))
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS  // one key shared by tasks (Apple's keys are Sendable from the iOS 18.4 SDK on)
    @Test func sharedAcrossTasks() async throws {
        let key = P256.Signing.PrivateKey()
        let message = self.message
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    guard let sig = try? key.signature(for: message) else { return false }
                    return key.publicKey.isValidSignature(sig, for: message)
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0 })
    }
    #endif
}
