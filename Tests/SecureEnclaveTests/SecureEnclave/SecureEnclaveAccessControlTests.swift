import CryptoKit
import Foundation
import LocalAuthentication
import Security
import Testing

/// Access control as Apple's: a key made with constraints is usable only after the matching LocalAuthentication
/// evaluation, with the given context reused without a second prompt.
@Suite struct SecureEnclaveAccessControlTests {
    @Test func userPresenceKeySignsWithAnEvaluatedContextWithoutASecondPrompt() async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        let context = try await device.evaluatedContext()  // the one prompt: the next one would time out
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                      [.privateKeyUsage, .userPresence], nil))
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: context)
            let message = Data("transfer".utf8)
            for _ in 0..<3 {
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            }
            // Restored with the same context: still no prompt.
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation,
                                                                      authenticationContext: context)
            #expect(key.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            // A new context has evaluated nothing, and its prompt fails (nobody answers): no signature.
            let fresh = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation,
                                                                    authenticationContext: device.context())
            #expect(throws: LAError.self) { try fresh.signature(for: message) }
            // With the prompt answered, the new context signs.
            try device.matchOnce()
            #expect(key.publicKey.isValidSignature(try fresh.signature(for: message), for: message))
        }
    }

    @Test func biometryCurrentSetKeyRefusesToSignAfterReEnrolment() async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        let before = try await device.evaluatedContext()
        let blob = try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                      [.privateKeyUsage, .biometryCurrentSet], nil))
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: before)
            _ = try key.signature(for: Data("before".utf8))
            return key.dataRepresentation
        }
        try device.simulator.enroll()  // a new face: the enrolled set changed
        let after = try await device.evaluatedContext()
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: after)
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25293)) {
                try key.signature(for: Data("after".utf8))
            }
        }
    }

    @Test func biometryAnyKeySurvivesReEnrolment() async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        let before = try await device.evaluatedContext()
        let blob = try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                      [.privateKeyUsage, .biometryAny], nil))
            return try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: before)
                .dataRepresentation
        }
        try device.simulator.enroll()
        let after = try await device.evaluatedContext()
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: after)
            let message = Data("after".utf8)
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
        }
    }

    @Test func devicePasscodeKeyAsksForThePasscodeNotBiometry() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                      [.privateKeyUsage, .devicePasscode], nil))
            // No biometric outcome is queued: a biometric prompt would fail. The passcode prompt answers "1234".
            let context = device.context()
            let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: access, authenticationContext: context)
            let peer = P256.KeyAgreement.PrivateKey()
            #expect(try key.sharedSecretFromKeyAgreement(with: peer.publicKey)
                    == peer.sharedSecretFromKeyAgreement(with: key.publicKey))
        }
    }
}
