import CryptoKit
import Foundation
import LatchkeyTestSupport
import LatchkeyTPM
import LocalAuthentication
import Security
import Testing

/// Access control as Apple's: a key made with constraints is usable only after the matching LocalAuthentication
/// evaluation, with the given context reused without a second prompt.
@Suite(.offCooperativePool) struct SecureEnclaveAccessControlTests {
    @Test func userPresenceKeySignsWithAnEvaluatedContextWithoutASecondPrompt() async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        let context = try await device.evaluatedContext()  // the one prompt: the next one would time out
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: try TestDevice.access([.privateKeyUsage, .userPresence]),
                                                                authenticationContext: context)
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

    /// A `.biometryCurrentSet` key refuses to sign once the enrolled biometry changed; a `.biometryAny` key still signs.
    @Test(arguments: [(SecAccessControlCreateFlags.biometryCurrentSet, false), (.biometryAny, true)])
    func reEnrolment(_ constraint: SecAccessControlCreateFlags, survives: Bool) async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        let before = try await device.evaluatedContext()
        let blob = try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: try TestDevice.access([.privateKeyUsage, constraint]),
                                                                authenticationContext: before)
            _ = try key.signature(for: Data("before".utf8))
            return key.dataRepresentation
        }
        try device.simulator.enroll()  // a new face: the enrolled set changed
        let after = try await device.evaluatedContext()
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: after)
            let message = Data("after".utf8)
            if survives {
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            } else {
                #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: -25293)) { try key.signature(for: message) }
            }
        }
    }

    @Test func devicePasscodeKeyAsksForThePasscodeNotBiometry() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            // No biometric outcome is queued: a biometric prompt would fail. The passcode prompt answers "1234".
            let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(
                accessControl: try TestDevice.access([.privateKeyUsage, .devicePasscode]), authenticationContext: device.context())
            let peer = P256.KeyAgreement.PrivateKey()
            #expect(try key.sharedSecretFromKeyAgreement(with: peer.publicKey)
                    == peer.sharedSecretFromKeyAgreement(with: key.publicKey))
        }
    }
}
