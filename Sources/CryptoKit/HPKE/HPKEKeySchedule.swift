import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// The four modes of RFC 9180 §5.
enum HPKEMode: UInt8, Sendable {
    case base = 0x00
    case psk = 0x01
    case auth = 0x02
    case authPSK = 0x03

    /// The modes that take a pre-shared key.
    var takesPSK: Bool { self == .psk || self == .authPSK }
}

/// The encryption context of RFC 9180 §5.1–5.3: the key schedule's key, base nonce and exporter secret, and the
/// sequence number of the next message. Shared by `HPKE.Sender` and `HPKE.Recipient`.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
struct HPKEContext: Sendable {
    let ciphersuite: HPKE.Ciphersuite
    /// The AEAD key; nil for export-only.
    private let key: SymmetricKey?
    private let baseNonce: [UInt8]
    private let exporterSecret: SecretBytes
    private var sequenceNumber: UInt64 = 0

    /// `KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id)`. An empty key or identifier counts as none
    /// (RFC 9180's default_psk and default_psk_id are empty strings).
    init(mode: HPKEMode, sharedSecret: SymmetricKey, info: Data, psk: SymmetricKey?, pskID: Data?,
         ciphersuite: HPKE.Ciphersuite) throws {
        let gotPSK = (psk?.bitCount ?? 0) > 0
        let gotPSKID = !(pskID?.isEmpty ?? true)
        if gotPSK != gotPSKID { throw HPKE.Errors.inconsistentPSKInputs }
        if gotPSK && !mode.takesPSK { throw HPKE.Errors.unexpectedPSK }
        if !gotPSK && mode.takesPSK { throw HPKE.Errors.expectedPSK }

        let kdf = HPKELabeledKDF(suiteIdentifier: ciphersuite.identifier, digest: ciphersuite.kdf.digest)
        let aead = ciphersuite.aead
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        (key, baseNonce, exporterSecret) = try engine { () throws(CryptoError) in
            let pskIDHash = try ContiguousInput.with(pskID ?? Data()) { (id) throws(CryptoError) in
                try kdf.extract(salt: empty, label: "psk_id_hash", ikm: id)
            }
            let infoHash = try ContiguousInput.with(info) { (info) throws(CryptoError) in
                try kdf.extract(salt: empty, label: "info_hash", ikm: info)
            }
            var context = [mode.rawValue]
            pskIDHash.withBytes { context.append(contentsOf: $0) }
            infoHash.withBytes { context.append(contentsOf: $0) }
            let secret = try kdf.extract(salt: sharedSecret.secret.bytes, label: "secret", ikm: psk?.secret.bytes ?? empty)
            return try secret.withBytes { (secret) throws(CryptoError) in
                try ContiguousInput.with(context) { (context) throws(CryptoError) in
                    var key: SymmetricKey?
                    var nonce: [UInt8] = []
                    if aead != .exportOnly {
                        key = SymmetricKey(secret: try kdf.expand(prk: secret, label: "key", info: context,
                                                                  length: aead.keyByteCount))
                        nonce = try kdf.expand(prk: secret, label: "base_nonce", info: context,
                                               length: HPKE.AEAD.nonceByteCount).withBytes { Array($0) }
                    }
                    let exporter = try kdf.expand(prk: secret, label: "exp", info: context,
                                                  length: ciphersuite.kdf.digest.byteCount)
                    return (key, nonce, exporter)
                }
            }
        }
        self.ciphersuite = ciphersuite
    }

    /// `ContextS.Seal(aad, pt)`: the ciphertext and tag under the next nonce.
    mutating func seal(_ plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> Data {
        guard let key, let cipher = ciphersuite.aead.cipher else { throw HPKE.Errors.exportOnlyMode }
        let nonce = try nextNonce()
        let sealed = try nonce.withUnsafeBytes { nonce in
            try engine { () throws(CryptoError) in
                try AEADEngine.seal(plaintext, key: key.secret, nonce: nonce, aad: aad, cipher: cipher)
            }
        }
        sequenceNumber += 1
        return Data(sealed.dropFirst(HPKE.AEAD.nonceByteCount))
    }

    /// `ContextR.Open(aad, ct)`: the plaintext, or `CryptoKitError.authenticationFailure`.
    mutating func open(_ ciphertext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> Data {
        guard let key, let cipher = ciphersuite.aead.cipher else { throw HPKE.Errors.exportOnlyMode }
        guard ciphertext.count >= HPKE.AEAD.tagByteCount else { throw HPKE.Errors.ciphertextTooShort }
        var box = try nextNonce()
        box.append(contentsOf: ciphertext)
        let opened = try box.withUnsafeBytes { box in
            try engine { () throws(CryptoError) in try AEADEngine.open(box, key: key.secret, aad: aad, cipher: cipher) }
        }
        sequenceNumber += 1
        return opened
    }

    /// `Context.Export(exporter_context, L)`; L out of 1 ... 255 × the hash length is
    /// `CryptoKitError.incorrectParameterSize`.
    func export(_ exporterContext: UnsafeRawBufferPointer, outputByteCount: Int) throws -> SymmetricKey {
        let kdf = HPKELabeledKDF(suiteIdentifier: ciphersuite.identifier, digest: ciphersuite.kdf.digest)
        return SymmetricKey(secret: try engine { () throws(CryptoError) in
            try exporterSecret.withBytes { (secret) throws(CryptoError) in
                try kdf.expand(prk: secret, label: "sec", info: exporterContext, length: outputByteCount)
            }
        })
    }

    /// `ComputeNonce(seq)` = base_nonce XOR I2OSP(seq, Nn). The sequence number is a `UInt64` (the RFC's limit,
    /// 2^96 - 1 for a 12-byte nonce, is never reached first): at its maximum, `outOfRangeSequenceNumber`.
    private func nextNonce() throws -> [UInt8] {
        guard sequenceNumber < UInt64.max else { throw HPKE.Errors.outOfRangeSequenceNumber }
        var nonce = baseNonce
        var sequence = sequenceNumber.bigEndian
        withUnsafeBytes(of: &sequence) { bytes in
            let offset = nonce.count - bytes.count
            for (index, byte) in bytes.enumerated() { nonce[offset + index] ^= byte }
        }
        return nonce
    }
}
