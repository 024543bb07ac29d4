import CTSS2
import Foundation

/// A key the TPM made, as the TPM hands it out: its public area and its private area, which the TPM encrypted and
/// integrity-protected under the package's primary key (`TPM2B_PUBLIC` and `TPM2B_PRIVATE` in tpm2-tss's marshalled
/// form). The private key never leaves the TPM in the clear; the blob loads only on the TPM that made it, under the
/// same owner hierarchy.
package struct TPMKeyBlob: Sendable, Hashable {
    /// The kind of key the public area describes.
    package let kind: TPMKeyKind
    /// Marshalled `TPM2B_PUBLIC`.
    package let publicArea: Data
    /// Marshalled `TPM2B_PRIVATE`.
    package let privateArea: Data
    /// The public key, uncompressed (04 ‖ x ‖ y), read from the public area.
    package let x963PublicKey: Data

    /// Checks that `publicArea` is a P-256 key of `kind` with the engine's attributes, and that `privateArea` is a
    /// well-formed `TPM2B_PRIVATE`. Nothing is sent to a TPM.
    package init(kind: TPMKeyKind, publicArea: Data, privateArea: Data) throws(TPMError) {
        guard var pub = Self.unmarshalPublic(publicArea), latchkey_tpm_is_p256_key(&pub, kind.template) == 1,
              Self.unmarshalPrivate(privateArea) != nil else {
            throw .malformedKey
        }
        let ecc = pub.publicArea.unique.ecc
        guard let x = TPMBytes.padded(TPMBytes.load(ecc.x.buffer, count: ecc.x.size), to: 32),
              let y = TPMBytes.padded(TPMBytes.load(ecc.y.buffer, count: ecc.y.size), to: 32) else {
            throw .malformedKey
        }
        self.kind = kind
        self.publicArea = publicArea
        self.privateArea = privateArea
        x963PublicKey = Data([0x04]) + x + y
    }

    /// The blob of what `TPM2_Create` returned.
    init(kind: TPMKeyKind, public pub: UnsafePointer<TPM2B_PUBLIC>, private priv: UnsafePointer<TPM2B_PRIVATE>) throws(TPMError) {
        guard let publicBytes = Self.marshal(pub, Tss2_MU_TPM2B_PUBLIC_Marshal),
              let privateBytes = Self.marshal(priv, Tss2_MU_TPM2B_PRIVATE_Marshal) else {
            throw .failed(operation: "marshal", code: 0, text: "the TPM's key did not marshal")
        }
        try self.init(kind: kind, publicArea: publicBytes, privateArea: privateBytes)
    }

    /// The unmarshalled public area (for TPM2_Load).
    var publicStructure: TPM2B_PUBLIC {
        get throws(TPMError) {
            guard let pub = Self.unmarshalPublic(publicArea) else { throw .malformedKey }
            return pub
        }
    }

    /// The unmarshalled private area (for TPM2_Load).
    var privateStructure: TPM2B_PRIVATE {
        get throws(TPMError) {
            guard let priv = Self.unmarshalPrivate(privateArea) else { throw .malformedKey }
            return priv
        }
    }

    private static func unmarshalPublic(_ bytes: Data) -> TPM2B_PUBLIC? {
        unmarshal(bytes, TPM2B_PUBLIC(), Tss2_MU_TPM2B_PUBLIC_Unmarshal)
    }

    private static func unmarshalPrivate(_ bytes: Data) -> TPM2B_PRIVATE? {
        unmarshal(bytes, TPM2B_PRIVATE(), Tss2_MU_TPM2B_PRIVATE_Unmarshal)
    }

    /// tpm2-tss's unmarshalling of exactly `bytes` (nothing left over) into a `T`.
    private static func unmarshal<T>(_ bytes: Data, _ empty: T,
                                     _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<T>?) -> TSS2_RC) -> T? {
        var out = empty
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
            var offset = 0
            return function(base, raw.count, &offset, &out) == 0 && offset == raw.count
        }
        return ok ? out : nil
    }

    private static func marshal<T>(_ value: UnsafePointer<T>,
                                   _ function: (UnsafePointer<T>?, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> TSS2_RC) -> Data? {
        var buffer = [UInt8](repeating: 0, count: MemoryLayout<T>.size + 16)
        var offset = 0
        let rc = buffer.withUnsafeMutableBufferPointer { function(value, $0.baseAddress, $0.count, &offset) }
        return rc == 0 ? Data(buffer.prefix(offset)) : nil
    }
}
