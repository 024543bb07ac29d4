import CryptoKit
import Foundation
import LatchkeyTPM
import Testing

/// `SecureEnclave.P256.KeyAgreement`: ECDH in the TPM agrees with a software key.
@Suite struct SecureEnclaveKeyAgreementTests {
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
}
