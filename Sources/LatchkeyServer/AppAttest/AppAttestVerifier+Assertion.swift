import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

extension AppAttestVerifier {
    /// Verifies an assertion made by the attested key `key` over `clientData` (steps 1–5; the challenge inside the
    /// client data is the caller's to consume). Returns the assertion's counter, to be stored only if it is still
    /// greater than the stored one when it is written (`Database.advanceAppAttestCounter`).
    public func verifyAssertion(_ assertion: AppAttestAssertion, clientData: Data,
                                key: AppAttestKeyRecord) throws(AppAttestError) -> UInt32 {
        try verifyAssertion(assertion, clientDataHash: Data(SHA256.hash(data: clientData)), key: key)
    }

    /// The same with the client data already hashed.
    public func verifyAssertion(_ assertion: AppAttestAssertion, clientDataHash: Data,
                                key: AppAttestKeyRecord) throws(AppAttestError) -> UInt32 {
        // Step 4: the RP ID hash is the app's the key was attested for.
        let rpIDHash = assertion.rpIDHash
        guard let app = appIDHashes.first(where: { $0.hash == rpIDHash }), app.appID.description == key.appID else {
            throw .appIDMismatch
        }
        // Step 5: the counter grew.
        let counter = assertion.counter
        guard counter > key.counter else { throw .counterNotIncreasing(stored: key.counter, received: counter) }
        // Steps 1–3: the key signed SHA256(authenticatorData ‖ clientDataHash).
        let verificationKey: CredentialVerificationKey
        do {
            verificationKey = try keys.key(credentialID: key.keyID, publicKey: key.publicKey) { () throws(WebAuthnError) in
                try CredentialVerificationKey(CredentialPublicKey(encoded: key.publicKey))
            }
        } catch {
            throw .unknownKey
        }
        guard verificationKey.algorithm == COSEAlgorithm.es256.rawValue else { throw .unknownKey }
        let nonce = AppAttestAssertion.nonce(authenticatorData: assertion.authenticatorData, clientDataHash: clientDataHash)
        guard verificationKey.isValidSignature(assertion.signature, for: Data(nonce)) else { throw .signatureInvalid }
        return counter
    }
}
