import CryptoKit
import Foundation
import LatchkeyTestSupport
import LatchkeyTPM
import Testing

/// `SecureEnclave.P256.KeyAgreement`: ECDH in the TPM agrees with a software key.
@Suite(.offCooperativePool) struct SecureEnclaveKeyAgreementTests {
    @Test func sharedSecretMatchesASoftwareKeys() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let enclave = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let software = P256.KeyAgreement.PrivateKey()
            let inTPM = try enclave.sharedSecretFromKeyAgreement(with: software.publicKey)
            let inSoftware = try software.sharedSecretFromKeyAgreement(with: enclave.publicKey)
            #expect(inTPM == inSoftware)
            let salt = Data("salt".utf8)
            #expect(inTPM.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Data(), outputByteCount: 32)
                    == inSoftware.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Data(), outputByteCount: 32))
            // Restored from its blob, the key agrees on the same secret.
            let restored = try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: enclave.dataRepresentation)
            #expect(try restored.sharedSecretFromKeyAgreement(with: software.publicKey) == inSoftware)
            // A blob of the other kind is not a key of this kind.
            let signing = try SecureEnclave.P256.Signing.PrivateKey()
            #expect(throws: (any Error).self) {
                try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: signing.dataRepresentation)
            }
        }
    }

    /// An HPKE recipient key in the TPM (Apple's conformance of iOS 17): a software sender seals to its public key, the
    /// recipient opens with the key's ECDH done in the TPM, in the base and the PSK modes.
    @Test func isAnHPKERecipientKey() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            let enclave = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let suite = HPKE.Ciphersuite.P256_SHA256_AES_GCM_256
            let info = Data("latchkey hpke".utf8)
            var sender = try HPKE.Sender(recipientKey: enclave.publicKey, ciphersuite: suite, info: info)
            let sealed = try sender.seal(Data("to the enclave".utf8), authenticating: Data("aad".utf8))
            var recipient = try HPKE.Recipient(privateKey: enclave, ciphersuite: suite, info: info,
                                               encapsulatedKey: sender.encapsulatedKey)
            #expect(try recipient.open(sealed, authenticating: Data("aad".utf8)) == Data("to the enclave".utf8))
            #expect(try recipient.exportSecret(context: Data("c".utf8), outputByteCount: 32)
                    == sender.exportSecret(context: Data("c".utf8), outputByteCount: 32))

            let psk = SymmetricKey(size: .bits256), pskID = Data("psk id".utf8)
            var pskSender = try HPKE.Sender(recipientKey: enclave.publicKey, ciphersuite: suite, info: info,
                                            presharedKey: psk, presharedKeyIdentifier: pskID)
            let pskSealed = try pskSender.seal(Data("psk".utf8))
            var pskRecipient = try HPKE.Recipient(privateKey: enclave, ciphersuite: suite, info: info,
                                                  encapsulatedKey: pskSender.encapsulatedKey,
                                                  presharedKey: psk, presharedKeyIdentifier: pskID)
            #expect(try pskRecipient.open(pskSealed) == Data("psk".utf8))
            // Another key cannot open it.
            var stranger = try HPKE.Recipient(privateKey: P256.KeyAgreement.PrivateKey(), ciphersuite: suite, info: info,
                                              encapsulatedKey: sender.encapsulatedKey)
            #expect(throws: (any Error).self) { try stranger.open(sealed, authenticating: Data("aad".utf8)) }
        }
    }
}

/// What crosses the TCTI: the ECDH secret never in the clear (the TPM encrypts the response under a salted session).
@Suite(.offCooperativePool) struct SecureEnclaveTrafficTests {
    @Test func theSharedSecretNeverCrossesTheTCTIInTheClear() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let proxy = try RecordingProxy(to: tpm)
        defer { proxy.stop() }
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(proxy.tcti) {
            let enclave = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey()
            let secret = try enclave.sharedSecretFromKeyAgreement(with: peer.publicKey)
            #expect(secret == (try peer.sharedSecretFromKeyAgreement(with: enclave.publicKey)))
            let traffic = proxy.traffic
            // The recording works: the peer's point went to the TPM as a plain command parameter.
            #expect(traffic.range(of: peer.publicKey.x963Representation.dropFirst().prefix(32)) != nil)
            #expect(traffic.range(of: secret.withUnsafeBytes { Data($0) }) == nil)
        }
    }

    /// A key's authValue goes to the TPM encrypted when the key is made and is never sent when it is used (an HMAC).
    @Test func anAuthValueNeverCrossesTheTCTIInTheClear() throws {
        guard let tpm = try SoftwareTPM.start() else { return }
        let proxy = try RecordingProxy(to: tpm)
        defer { proxy.stop() }
        let selection = TPMSelection.configured(proxy.tcti)
        let authValue = Data((0..<32).map { UInt8(0xa0 + $0 % 16) })
        let key = try TPMEngine.createKey(.signing, authValue: authValue, on: selection)
        let digest = Data(SHA256.hash(data: Data("x".utf8)))
        let signature = try TPMEngine.sign(digest: digest, with: key, authValue: authValue, on: selection)
        let publicKey = try P256.Signing.PublicKey(x963Representation: key.x963PublicKey)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature),
                                           for: SHA256.hash(data: Data("x".utf8))))
        #expect(throws: TPMError.authorizationFailed) {
            try TPMEngine.sign(digest: digest, with: key, authValue: Data(repeating: 1, count: 32), on: selection)
        }
        #expect(proxy.traffic.range(of: digest) != nil)   // the recording works
        #expect(proxy.traffic.range(of: authValue) == nil)
    }
}
