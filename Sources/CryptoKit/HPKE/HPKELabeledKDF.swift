import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// RFC 9180 §4's `LabeledExtract` and `LabeledExpand`: OpenSSL's HKDF extract and expand steps (`HKDFEngine`) over
/// inputs prefixed with "HPKE-v1", the suite identifier and the label. Labeled inputs that carry key material are built
/// in zeroing buffers.
struct HPKELabeledKDF: Sendable {
    /// "KEM" ‖ kem_id inside a KEM; "HPKE" ‖ kem_id ‖ kdf_id ‖ aead_id in the key schedule.
    let suiteIdentifier: [UInt8]
    /// The KDF's hash.
    let digest: OpenSSLDigest

    private static let version = Array("HPKE-v1".utf8)

    /// `LabeledExtract(salt, label, ikm)` = Extract(salt, "HPKE-v1" ‖ suite_id ‖ label ‖ ikm).
    func extract(salt: UnsafeRawBufferPointer, label: String, ikm: UnsafeRawBufferPointer) throws(CryptoError) -> SecretBytes {
        let prefix = Self.version + suiteIdentifier + Array(label.utf8)
        let labeled = SecretBytes(uninitializedByteCount: prefix.count + ikm.count) { out in
            prefix.withUnsafeBytes { out.copyMemory(from: $0) }
            if ikm.count > 0 { UnsafeMutableRawBufferPointer(rebasing: out[prefix.count...]).copyMemory(from: ikm) }
        }
        return try labeled.withBytes { (ikm) throws(CryptoError) in try HKDFEngine.extract(ikm: ikm, salt: salt, digest: digest) }
    }

    /// `LabeledExpand(prk, label, info, L)` = Expand(prk, I2OSP(L, 2) ‖ "HPKE-v1" ‖ suite_id ‖ label ‖ info, L).
    /// `L` must be 1 ... 255 × the hash length (HKDF's bound, below I2OSP's 65,535).
    func expand(prk: UnsafeRawBufferPointer, label: String, info: UnsafeRawBufferPointer,
                length: Int) throws(CryptoError) -> SecretBytes {
        guard length > 0, length <= Int(UInt16.max) else {
            throw .invalidParameter("HPKE output length must be 1...65535 bytes")
        }
        var labeledInfo = HPKE.bigEndian(UInt16(length)) + Self.version + suiteIdentifier + Array(label.utf8)
        labeledInfo.append(contentsOf: info)
        return try ContiguousInput.with(labeledInfo) { (labeled) throws(CryptoError) in
            try HKDFEngine.expand(prk: prk, info: labeled, outputByteCount: length, digest: digest)
        }
    }
}
