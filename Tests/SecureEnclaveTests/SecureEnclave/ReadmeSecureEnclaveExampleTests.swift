import CryptoKit
import DeviceCheck
import Foundation
import LatchkeyTestSupport
import LatchkeyTPM
import LocalAuthentication
import Security
import Testing

/// The README's "Secure Enclave keys and App Attest on Linux" examples, run as written (with a simulated phone behind
/// `LAContext()` and a swtpm of the test's own).
@Suite(.offCooperativePool) struct ReadmeSecureEnclaveExampleTests {
    @Test func secureEnclaveExample() async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let device = try TestDevice()
        defer { device.remove() }
        try device.matchOnce()  // the example's one prompt
        let simulator = device.simulator
        let request = Data("POST /v1/transfer".utf8)
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            LatchkeyLocalAuthenticationConfiguration.threadMakeContext = {
                simulator.makeContext(passcodeProvider: FixedPasscode())
            }
            defer { LatchkeyLocalAuthenticationConfiguration.threadMakeContext = nil }

            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                         [.privateKeyUsage, .userPresence], nil)!
            let context = LAContext()
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: context)
            let signature = try key.signature(for: request)   // one prompt; later signatures with this context ask nothing
            let blob = key.dataRepresentation                  // keep it (in the keychain, say): useless on another TPM
            let same = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: context)

            #expect(key.publicKey.isValidSignature(signature, for: request))
            #expect(same.publicKey.isValidSignature(try same.signature(for: request), for: request))
        }
    }

    @Test func appAttestExample() async throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = LatchkeyDeviceCheckConfiguration(appID: "A1B2C3D4E5.com.example.notes", keyDirectory: directory,
                                                              authorityDirectory: directory.appendingPathComponent("ca"))
        let challenge = Data("challenge".utf8), clientData = Data("request".utf8)
        let made: (String, Data, Data)? = try await LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            try await LatchkeyDeviceCheckConfiguration.$task.withValue(configuration) {
                let service = DCAppAttestService.shared
                guard service.isSupported else { return nil }                   // a TPM and an App ID
                let keyId = try await service.generateKey()
                let attestation = try await service.attestKey(keyId, clientDataHash: Data(SHA256.hash(data: challenge)))
                let assertion = try await service.generateAssertion(keyId, clientDataHash: Data(SHA256.hash(data: clientData)))
                return (keyId, attestation, assertion)
            }
        }
        let (keyId, attestation, assertion) = try #require(made)
        let root = try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            try LatchkeyAppAttestAuthority(directory: directory.appendingPathComponent("ca")).rootCertificate()
        }
        let verifier = AppAttestVerifier(appID: "A1B2C3D4E5.com.example.notes", root: try .init(derRepresentation: root))
        let publicKey = try verifier.verifyAttestation(attestation, keyID: keyId, challenge: challenge)
        #expect(try verifier.verifyAssertion(assertion, clientData: clientData, publicKey: publicKey, previousCounter: 0) == 1)
    }
}
