import Foundation

/// TPM 2.0 structures in attestation statements (TPM 2.0 Library, Part 2 "Structures"), big-endian.
enum TPM {
    static let generatedValue: UInt32 = 0xff54_4347 // TPM_GENERATED_VALUE
    static let stAttestCertified: UInt16 = 0x8017 // TPM_ST_ATTEST_CERTIFIED

    // TPM_ALG_ID values.
    static let algRSA: UInt16 = 0x0001, algSHA1: UInt16 = 0x0004, algSHA256: UInt16 = 0x000b
    static let algSHA384: UInt16 = 0x000c, algSHA512: UInt16 = 0x000d, algNull: UInt16 = 0x0010
    static let algECC: UInt16 = 0x0023
    // TPM_ECC_CURVE values.
    static let eccNistP256: UInt16 = 0x0003, eccNistP384: UInt16 = 0x0004, eccNistP521: UInt16 = 0x0005

    /// A bounds-checked big-endian reader.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ data: Data) { bytes = [UInt8](data) }

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }
        mutating func uint(_ width: Int) -> UInt64? {
            take(width)?.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        mutating func u16() -> UInt16? { uint(2).map { UInt16($0) } }
        mutating func u32() -> UInt32? { uint(4).map { UInt32($0) } }
        /// A TPM2B_*: a 16-bit size, then that many bytes.
        mutating func sized() -> Data? {
            guard let size = u16(), let body = take(Int(size)) else { return nil }
            return Data(body)
        }
    }

    /// TPMT_PUBLIC: the key the TPM certified.
    struct Public: Equatable {
        enum Key: Equatable {
            case rsa(modulus: Data, exponent: UInt32)
            case ecc(curve: UInt16, x: Data, y: Data)
        }
        var type: UInt16
        var nameAlg: UInt16
        var objectAttributes: UInt32
        var key: Key

        init(_ data: Data) throws(TPMParseError) {
            var r = Reader(data)
            guard let type = r.u16(), let nameAlg = r.u16(), let attributes = r.u32(), r.sized() != nil else {
                throw TPMParseError("truncated header")
            }
            self.type = type
            self.nameAlg = nameAlg
            objectAttributes = attributes
            // TPMT_SYM_DEF_OBJECT: algorithm, then keyBits and mode unless TPM_ALG_NULL.
            guard let symmetric = r.u16() else { throw TPMParseError("truncated parameters") }
            if symmetric != TPM.algNull {
                guard r.u16() != nil, r.u16() != nil else { throw TPMParseError("truncated symmetric") }
            }
            // TPMT_RSA_SCHEME / TPMT_ECC_SCHEME: scheme, then a hash unless TPM_ALG_NULL.
            guard let scheme = r.u16() else { throw TPMParseError("truncated scheme") }
            if scheme != TPM.algNull {
                guard r.u16() != nil else { throw TPMParseError("truncated scheme") }
            }
            switch type {
            case TPM.algRSA:
                guard r.u16() != nil, let exponent = r.u32(), let modulus = r.sized(), !modulus.isEmpty else {
                    throw TPMParseError("truncated RSA parameters")
                }
                // An exponent of zero means the default, 2^16 + 1.
                key = .rsa(modulus: modulus, exponent: exponent == 0 ? 65537 : exponent)
            case TPM.algECC:
                guard let curve = r.u16(), let kdf = r.u16() else { throw TPMParseError("truncated ECC parameters") }
                if kdf != TPM.algNull {
                    guard r.u16() != nil else { throw TPMParseError("truncated KDF") }
                }
                guard let x = r.sized(), let y = r.sized() else { throw TPMParseError("truncated ECC point") }
                key = .ecc(curve: curve, x: x, y: y)
            default:
                throw TPMParseError("key type \(type)")
            }
            guard r.isAtEnd else { throw TPMParseError("trailing bytes") }
        }
    }

    /// TPMS_ATTEST with TPMS_CERTIFY_INFO (the only type a WebAuthn statement carries).
    struct Attest {
        var magic: UInt32
        var type: UInt16
        var qualifiedSigner: Data
        var extraData: Data
        var attestedName: Data
        var attestedQualifiedName: Data

        init(_ data: Data) throws(TPMParseError) {
            var r = Reader(data)
            guard let magic = r.u32(), let type = r.u16(), let signer = r.sized(), let extra = r.sized() else {
                throw TPMParseError("truncated header")
            }
            self.magic = magic
            self.type = type
            qualifiedSigner = signer
            extraData = extra
            // TPMS_CLOCK_INFO (clock, resetCount, restartCount, safe) and firmwareVersion.
            guard r.take(8 + 4 + 4 + 1) != nil, r.take(8) != nil else { throw TPMParseError("truncated clock") }
            guard let name = r.sized(), let qualified = r.sized() else {
                throw TPMParseError("truncated attested names")
            }
            attestedName = name
            attestedQualifiedName = qualified
            guard r.isAtEnd else { throw TPMParseError("trailing bytes") }
        }
    }
}

/// Why a TPM structure did not parse; the caller turns it into `AttestationError.tpmPubAreaMalformed` / `.tpmCertInfoMalformed`.
struct TPMParseError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
