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

    /// The README's `Security` example (`SecKeyCreateRandomKey` with `kSecAttrTokenIDSecureEnclave`), as written.
    @Test func securityExample() async throws {
        let tag = Data("com.example.notes.signing".utf8), request = Data("POST /v1/transfer".utf8)
        let outcome: (Bool, Bool)? = try await KeychainOnTPM.run { _ in
            var checked = false
            func example() throws -> Bool? {
                let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                             .privateKeyUsage, nil)!
                let attributes: NSDictionary = [
                    kSecAttrKeyType: kSecAttrKeyTypeEC,
                    kSecAttrKeySizeInBits: 256,
                    kSecAttrTokenID: kSecAttrTokenIDSecureEnclave,
                    kSecPrivateKeyAttrs: [kSecAttrIsPermanent: true, kSecAttrApplicationTag: tag, kSecAttrAccessControl: access],
                ]
                var error: Unmanaged<CFError>?
                guard SecKeyCreateRandomKey(attributes, &error) != nil else { throw error!.takeRetainedValue() as any Error }

                // Later, in another process too (same TPM, same keychain):
                let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnRef as String: true]
                var item: CFTypeRef?
                guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
                let key = item as! SecKey
                let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, request as CFData, &error)! as Data
                let valid = SecKeyVerifySignature(SecKeyCopyPublicKey(key)!, .ecdsaSignatureMessageX962SHA256, request as CFData,
                                                  signature as CFData, &error)
                checked = true
                return valid
            }
            return (try example() ?? false, checked)
        }
        guard let (valid, checked) = outcome else { return }
        #expect(checked && valid)
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
