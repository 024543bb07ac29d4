import CryptoKit
import Foundation
import LatchkeyTestSupport
import LatchkeyTPM
import LocalAuthentication
import Security
import Testing

/// `SecureEnclave.P256.Signing` on a swtpm of each test's own.
@Suite(.offCooperativePool) struct SecureEnclaveSigningTests {
    @Test func signsInTheTPMAndASoftwareKeyVerifies() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            #expect(SecureEnclave.isAvailable)
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let message = Data("a request to sign".utf8)
            let signature = try key.signature(for: message)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            // The same check by a key made from the public bytes alone, and over the digest form.
            let software = try P256.Signing.PublicKey(x963Representation: key.publicKey.x963Representation)
            #expect(software.isValidSignature(signature, for: message))
            #expect(!software.isValidSignature(signature, for: Data("another request".utf8)))
            let digest = SHA256.hash(data: message)
            #expect(software.isValidSignature(try key.signature(for: digest), for: digest))
            #expect(key.publicKey.compactRepresentation != nil)  // compactRepresentable defaults to true
        }
    }

    @Test func dataRepresentationRoundTripsAndIsNotThePrivateKey() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(compactRepresentable: false)
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
            #expect(restored.dataRepresentation == key.dataRepresentation)
            let message = Data("after a restart".utf8)
            #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
        }
    }

    @Test func keysOutliveAPowerCycleOfTheTPM() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let message = Data("before the reboot".utf8)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            // The TPM forgets everything volatile (the primary key's saved context included) and must be started again.
            try tpm.powerCycle()
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
        }
    }

    @Test func theBlobDoesNotLoadOnAnotherTPM() throws {
        guard let first = try SoftwareTPM.start(), let second = try SoftwareTPM.start() else { return }
        let blob = try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(first.tcti) {
            try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
        }
        LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(second.tcti) {
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25300)) {
                try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            }
        }
        // Still fine where it was made.
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(first.tcti) {
            _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
        }
    }

    @Test func alteredBlobsAreRefused() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let context = device.context()
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: try TestDevice.access([.privateKeyUsage, .devicePasscode]),
                                                                authenticationContext: context)
            let blob = key.dataRepresentation
            // Every byte flipped in turn: the blob no longer parses, no longer loads, or no longer unwraps its
            // authorization — never a key that signs without what its access control asked.
            var signed = 0
            for index in blob.indices {
                var altered = blob
                altered[index] ^= 0x01
                if let changed = try? SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: altered,
                                                                              authenticationContext: context),
                   (try? changed.signature(for: Data("x".utf8))) != nil {
                    signed += 1
                }
            }
            #expect(signed == 0)
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -50)) {
                try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data("not a key".utf8))
            }
        }
    }

    @Test func withoutATPMItIsUnavailableAndCreationThrowsAsOnASimulator() throws {
        LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue("none") {
            #expect(!SecureEnclave.isAvailable)
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -4)) {
                try SecureEnclave.P256.Signing.PrivateKey()
            }
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -4)) {
                try SecureEnclave.P256.KeyAgreement.PrivateKey()
            }
            #expect(!LatchkeySecureEnclaveConfiguration.latchkeyTPMStatus().inUse)
        }
    }
}
