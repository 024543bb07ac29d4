import CryptoKit
import Foundation
import LatchkeyCrypto

/// A small App Attest verifier for the tests, following Apple's "Validating apps that connect to your server" step by
/// step (the server's own verifier is LatchkeyServer's). Throws the step that failed.
struct AppAttestVerifier {
    let appID: String
    let root: Certificate
    /// The development environment's AAGUID.
    let aaguid = Data("appattestdevelop".utf8)

    struct Failure: Error, CustomStringConvertible {
        let step: String
        var description: String { "App Attest check failed: \(step)" }
    }

    /// Verifies an attestation object for `keyID` and `challenge`; returns the attested public key.
    func verifyAttestation(_ object: Data, keyID: String, challenge: Data, at date: Date = Date()) throws -> P256.Signing.PublicKey {
        let cbor = try CBORDecoder(requireCanonical: false).decode(object)
        guard cbor[text: "fmt"]?.textValue == "apple-appattest",
              let statement = cbor[text: "attStmt"], let authData = cbor[text: "authData"]?.bytesValue,
              let x5c = statement[text: "x5c"]?.arrayValue?.compactMap(\.bytesValue), x5c.count == 2,
              statement[text: "receipt"]?.bytesValue != nil else { throw Failure(step: "structure") }
        // 1. The chain to the root.
        let credential = try Certificate(derRepresentation: x5c[0])
        let intermediate = try Certificate(derRepresentation: x5c[1])
        do { try credential.verifyChain(intermediates: [intermediate], trustAnchors: [root], at: date) } catch {
            throw Failure(step: "certificate chain: \(error)")
        }
        // 2-4. The nonce, SHA-256(authData ‖ SHA-256(challenge)), in the credential certificate's extension.
        let nonce = Data(SHA256.hash(data: authData + Data(SHA256.hash(data: challenge))))
        guard let value = credential.extensionValue(oid: "1.2.840.113635.100.8.2"),
              let sequence = try? DERReader.parse(value), sequence.isUniversal(DERElement.sequence),
              sequence.children.count == 1, sequence.children[0].isContext(1),
              sequence.children[0].children.first?.octetStringValue == nonce else { throw Failure(step: "nonce") }
        // 5. SHA-256 of the public key is the key ID.
        let publicKey = try P256.Signing.PublicKey(derRepresentation: credential.subjectPublicKeyInfo)
        let expectedKeyID = Data(SHA256.hash(data: publicKey.x963Representation))
        guard Data(base64Encoded: keyID) == expectedKeyID else { throw Failure(step: "key identifier") }
        // 6-9. RP ID hash, counter 0, AAGUID, credential ID.
        guard authData.count >= 55, authData.prefix(32) == Data(SHA256.hash(data: Data(appID.utf8))) else {
            throw Failure(step: "RP ID hash")
        }
        guard authData[authData.startIndex + 33..<authData.startIndex + 37] == Data([0, 0, 0, 0]) else { throw Failure(step: "counter") }
        guard authData[authData.startIndex + 37..<authData.startIndex + 53] == aaguid else { throw Failure(step: "AAGUID") }
        let length = Int(authData[authData.startIndex + 53]) << 8 | Int(authData[authData.startIndex + 54])
        guard length == 32, authData.count >= 55 + length,
              authData[authData.startIndex + 55..<authData.startIndex + 55 + length] == expectedKeyID else {
            throw Failure(step: "credential ID")
        }
        // The COSE key in authData is the certificate's key.
        let cose = try COSEKey(encoded: Data(authData.dropFirst(55 + length)))
        guard case let .ec2(_, _, x, y) = cose, Data([0x04]) + x + y == publicKey.x963Representation else {
            throw Failure(step: "credential public key")
        }
        return publicKey
    }

    /// Verifies an assertion of `clientData` with `publicKey`; returns its counter, which must exceed `previousCounter`.
    func verifyAssertion(_ object: Data, clientData: Data, publicKey: P256.Signing.PublicKey, previousCounter: UInt32) throws -> UInt32 {
        let cbor = try CBORDecoder(requireCanonical: false).decode(object)
        guard let signature = cbor[text: "signature"]?.bytesValue,
              let authenticatorData = cbor[text: "authenticatorData"]?.bytesValue, authenticatorData.count == 37 else {
            throw Failure(step: "structure")
        }
        let nonce = Data(SHA256.hash(data: authenticatorData + Data(SHA256.hash(data: clientData))))
        guard publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: nonce) else {
            throw Failure(step: "signature")
        }
        guard authenticatorData.prefix(32) == Data(SHA256.hash(data: Data(appID.utf8))) else { throw Failure(step: "RP ID hash") }
        let counter = authenticatorData.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard counter > previousCounter else { throw Failure(step: "counter") }
        return counter
    }
}
