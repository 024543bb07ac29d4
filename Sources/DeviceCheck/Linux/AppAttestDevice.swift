#if os(Linux)
import CryptoKit
import Foundation
import LatchkeyCrypto
import LatchkeyOpenSSL
import LatchkeySupport

/// What `DCAppAttestService` does on Linux, for one App ID, synchronously: keys are `SecureEnclave` keys in the TPM,
/// attestations are issued by the development authority in Apple's layout, assertions carry a durable per-key counter.
///
/// Apple's layout (what a server verifies, see "Validating apps that connect to your server"):
/// - attestation: CBOR `{fmt: "apple-appattest", attStmt: {x5c: [credCert, intermediate], receipt}, authData}`, where
///   `authData` = SHA-256(App ID) ‖ flags 0x40 ‖ counter 0 ‖ AAGUID "appattestdevelop" ‖ credential ID length 32 ‖
///   credential ID = key ID ‖ COSE_Key (EC2, ES256, P-256), and credCert carries SHA-256(authData ‖ clientDataHash) in
///   extension 1.2.840.113635.100.8.2;
/// - assertion: CBOR `{signature, authenticatorData}`, `authenticatorData` = SHA-256(App ID) ‖ flags ‖ counter, and the
///   signature ECDSA-with-SHA-256 (DER) of nonce = SHA-256(authenticatorData ‖ clientDataHash).
struct AppAttestDevice {
    /// The development environment's AAGUID (Apple's: "appattestdevelop"; production is "appattest" + 7 zero bytes).
    static let developmentAAGUID = Data("appattestdevelop".utf8)
    static let attestationFlags: UInt8 = 0x40
    static let assertionFlags: UInt8 = 0x00

    let appID: String
    let store: AppAttestKeyStore
    let authority: LatchkeyAppAttestAuthority

    /// The device for `configuration`; `featureUnsupported` without an App ID.
    init(configuration: LatchkeyDeviceCheckConfiguration) throws(DCError) {
        appID = try configuration.resolvedAppID().get()
        store = AppAttestKeyStore(root: configuration.resolvedKeyDirectory(), appID: appID)
        authority = LatchkeyAppAttestAuthority(directory: configuration.resolvedAuthorityDirectory())
    }

    /// Whether App Attest works here: a TPM answers and there is an App ID.
    static func isSupported(_ configuration: LatchkeyDeviceCheckConfiguration) -> Bool {
        guard case .success = configuration.resolvedAppID() else { return false }
        return SecureEnclave.isAvailable
    }

    /// A new key in the TPM, stored unattested; its identifier is the base64 of SHA-256 of its public key.
    func generateKey() throws(DCError) -> String {
        let key: SecureEnclave.P256.Signing.PrivateKey
        do {
            key = try SecureEnclave.P256.Signing.PrivateKey()
        } catch {
            throw Self.failure(error)
        }
        let keyID = Self.keyID(key.publicKey)
        try store.create(AppAttestKeyRecord(appID: appID, key: key.dataRepresentation, attested: false, counter: 0),
                         keyID: keyID)
        return keyID.base64EncodedString()
    }

    /// The attestation object of an unattested key, for `clientDataHash`; the key is attested from then on.
    func attestKey(_ keyIdentifier: String, clientDataHash: Data) throws(DCError) -> Data {
        let keyID = try Self.decode(keyIdentifier, clientDataHash)
        return try store.update(keyID) { record throws(DCError) -> Data in
            guard !record.attested else {
                throw DCError(.invalidKey, reason: MessageLanguage.current.pick(
                    english: "The App Attest key was attested already.", korean: "이미 증명된 App Attest 키입니다."))
            }
            let key = try Self.load(record)
            let authData = rpIDHash + [Self.attestationFlags] + Self.bigEndian(0) + Self.developmentAAGUID
                + [0x00, 0x20] + keyID + Self.coseKey(key.publicKey)
            let nonce = Data(SHA256.hash(data: authData + clientDataHash))
            let x5c: [Data]
            do {
                x5c = try authority.credentialCertificate(publicKey: key.publicKey, keyID: keyID, nonce: nonce)
            } catch let error as DCError {
                throw error
            } catch {
                throw DCError(.serverUnavailable, reason: "the development App Attest authority failed: \(error.localizedDescription)")
            }
            let statement = CBOR.map(["x5c": .array(x5c.map { .byteString($0) }),
                                      "receipt": .byteString(Self.receipt(appID: appID, keyID: keyID))])
            record.attested = true
            return CBOR.map(["fmt": .textString("apple-appattest"), "attStmt": statement, "authData": .byteString(authData)])
                .encoded
        }
    }

    /// An assertion of `clientDataHash` with an attested key; its counter is one above the last, stored first.
    func generateAssertion(_ keyIdentifier: String, clientDataHash: Data) throws(DCError) -> Data {
        let keyID = try Self.decode(keyIdentifier, clientDataHash)
        return try store.update(keyID) { record throws(DCError) -> Data in
            guard record.attested else {
                throw DCError(.invalidKey, reason: MessageLanguage.current.pick(
                    english: "The App Attest key was never attested.", korean: "증명되지 않은 App Attest 키입니다."))
            }
            guard record.counter < UInt32.max else { throw DCError(.invalidKey, reason: "the key's counter is exhausted") }
            let key = try Self.load(record)
            record.counter += 1
            let authenticatorData = rpIDHash + [Self.assertionFlags] + Self.bigEndian(record.counter)
            let nonce = Data(SHA256.hash(data: authenticatorData + clientDataHash))
            let signature: Data
            do {
                signature = try key.signature(for: nonce).derRepresentation
            } catch {
                throw Self.failure(error)
            }
            return CBOR.map(["signature": .byteString(signature), "authenticatorData": .byteString(authenticatorData)]).encoded
        }
    }

    // MARK: - Pieces

    private var rpIDHash: Data { Data(SHA256.hash(data: Data(appID.utf8))) }

    /// The key ID of a public key: SHA-256 of its uncompressed point (the credential ID, Apple's `keyId` decoded).
    static func keyID(_ publicKey: P256.Signing.PublicKey) -> Data { Data(SHA256.hash(data: publicKey.x963Representation)) }

    /// The key ID a `keyId` string stands for; `invalidInput` for one that is not base64 of 32 bytes or an empty hash.
    private static func decode(_ keyIdentifier: String, _ clientDataHash: Data) throws(DCError) -> Data {
        guard let keyID = Data(base64Encoded: keyIdentifier), keyID.count == 32, !clientDataHash.isEmpty else {
            throw DCError(.invalidInput)
        }
        return keyID
    }

    private static func load(_ record: AppAttestKeyRecord) throws(DCError) -> SecureEnclave.P256.Signing.PrivateKey {
        do {
            return try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: record.key)
        } catch {
            throw failure(error, key: true)
        }
    }

    private static func coseKey(_ publicKey: P256.Signing.PublicKey) -> Data {
        let point = publicKey.x963Representation
        return COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33], y: point[33..<65]).encoded
    }

    private static func bigEndian(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }

    /// The attestation's receipt. Apple's is a signed PKCS#7 its fraud-metric service reads; the development authority
    /// has no such service, so its receipt is an unsigned DER statement of what was attested, for logs and storage:
    /// `SEQUENCE { UTF8String "latchkey development receipt", UTF8String appID, OCTET STRING keyID, UTF8String date }`.
    private static func receipt(appID: String, keyID: Data) -> Data {
        let date = ISO8601DateFormatter().string(from: Date())
        return DERWriter.sequence(DERWriter.utf8String("latchkey development receipt") + DERWriter.utf8String(appID)
                                   + DERWriter.octetString(keyID) + DERWriter.utf8String(date))
    }

    /// A `SecureEnclave` failure as DeviceCheck reports it: no TPM → featureUnsupported; a key this TPM does not open
    /// (when loading one) → invalidKey; anything else → unknownSystemFailure.
    private static func failure(_ error: any Error, key: Bool = false) -> DCError {
        if case CryptoKitError.underlyingCoreCryptoError(let code) = error {
            if code == -4 { return DCError(.featureUnsupported, reason: error.localizedDescription) }
            if key { return DCError(.invalidKey, reason: error.localizedDescription) }
        }
        return DCError(.unknownSystemFailure, reason: error.localizedDescription)
    }
}
#endif
