import Foundation
import LatchkeyAuthCore
import LatchkeyTPM

/// A Secure Enclave key's `dataRepresentation` on Linux: the TPM's blob of the key (public area, and private area
/// encrypted under the package's primary key — useless on any other TPM), the access control it was made with, and
/// its TPM authorization value wrapped once per alternative of that access control (AES-256-GCM under HKDF-SHA256 of
/// the alternative's protection-domain secrets, which an `LAContext` releases only after the matching evaluation).
///
/// Layout (version 1): "LKSE" ‖ 1 ‖ kind ‖ accessibility (u8 length ‖ UTF-8) ‖ flags (u64) ‖ requires authentication
/// (u8) ‖ TPM2B_PUBLIC (u16 length ‖ bytes) ‖ TPM2B_PRIVATE (u16 length ‖ bytes) ‖ wrap count (u8) ‖ per wrap: domain
/// count (u8) ‖ domain codes ‖ salt (16) ‖ sealed box (u16 length ‖ nonce ‖ ciphertext ‖ tag). Integers big-endian.
/// Each sealed box authenticates everything before the wraps plus its own index and domains, so no part of the blob
/// can be swapped or altered without the unwrap failing; the TPM refuses a changed public or private area.
struct SecureEnclaveKeyBlob: Sendable {
    /// One alternative's wrapping of the key's authorization value.
    struct Wrap: Sendable {
        let domains: [ProtectionDomain]
        let salt: Data
        let sealed: Data
    }

    static let magic: [UInt8] = Array("LKSE".utf8)
    static let version: UInt8 = 1
    static let saltSize = 16

    let tpmKey: TPMKeyBlob
    let access: SecureEnclaveAccess
    let wraps: [Wrap]

    init(tpmKey: TPMKeyBlob, access: SecureEnclaveAccess, wraps: [Wrap]) {
        self.tpmKey = tpmKey
        self.access = access
        self.wraps = wraps
    }

    /// Everything before the wraps (what each sealed box authenticates).
    static func header(tpmKey: TPMKeyBlob, access: SecureEnclaveAccess) -> Data {
        var out = Data(magic)
        out.append(version)
        out.append(tpmKey.kind.rawValue)
        let accessibility = Data(access.accessibility.utf8)
        out.append(UInt8(clamping: accessibility.count))
        out.append(accessibility.prefix(255))
        withUnsafeBytes(of: access.flags.bigEndian) { out.append(contentsOf: $0) }
        out.append(access.requiresAuthentication ? 1 : 0)
        appendSized(tpmKey.publicArea, to: &out)
        appendSized(tpmKey.privateArea, to: &out)
        return out
    }

    /// What the sealed box of wrap `index` authenticates besides its contents.
    static func associatedData(header: Data, index: Int, domains: [ProtectionDomain]) -> Data {
        header + [UInt8(clamping: index), UInt8(clamping: domains.count)] + domains.map(\.blobCode)
    }

    var encoded: Data {
        var out = Self.header(tpmKey: tpmKey, access: access)
        out.append(UInt8(clamping: wraps.count))
        for wrap in wraps {
            out.append(UInt8(clamping: wrap.domains.count))
            out.append(contentsOf: wrap.domains.map(\.blobCode))
            out.append(wrap.salt)
            Self.appendSized(wrap.sealed, to: &out)
        }
        return out
    }

    /// Parses a `dataRepresentation` of a key usable as `wanted` — of that kind, or one that signs and agrees (what
    /// `Security`'s Secure Enclave keys are: their blob opens as either CryptoKit key, as Apple's token object does);
    /// nil when the bytes are not one.
    init?(decoding data: Data, usableAs wanted: TPMKeyKind) {
        var reader = Reader(Data(data))
        guard reader.bytes(4).map(Array.init) == Self.magic, reader.byte() == Self.version,
              let kind = reader.byte().flatMap(TPMKeyKind.init(rawValue:)),
              kind == wanted || kind == .signingAndKeyAgreement,
              let accessibilityLength = reader.byte(), let accessibilityBytes = reader.bytes(Int(accessibilityLength)),
              let accessibility = String(bytes: accessibilityBytes, encoding: .utf8),
              let flags = reader.uint64(), let requires = reader.byte(), requires <= 1,
              let publicArea = reader.sized(), let privateArea = reader.sized(),
              let tpmKey = try? TPMKeyBlob(kind: kind, publicArea: publicArea, privateArea: privateArea),
              let count = reader.byte() else {
            return nil
        }
        var wraps: [Wrap] = []
        var alternatives: [[ProtectionDomain]] = []
        for _ in 0..<count {
            guard let domainCount = reader.byte(), domainCount > 0, let codes = reader.bytes(Int(domainCount)) else { return nil }
            let domains = codes.compactMap(ProtectionDomain.init(blobCode:))
            guard domains.count == codes.count, let salt = reader.bytes(Self.saltSize), let sealed = reader.sized() else {
                return nil
            }
            wraps.append(Wrap(domains: domains, salt: salt, sealed: sealed))
            alternatives.append(domains)
        }
        guard reader.isAtEnd, requires == 1 || wraps.isEmpty else { return nil }
        self.init(tpmKey: tpmKey,
                  access: SecureEnclaveAccess(accessibility: accessibility, flags: flags, alternatives: alternatives,
                                              requiresAuthentication: requires == 1),
                  wraps: wraps)
    }

    private static func appendSized(_ bytes: Data, to out: inout Data) {
        let count = UInt16(clamping: bytes.count)
        out.append(UInt8(count >> 8))
        out.append(UInt8(count & 0xff))
        out.append(bytes.prefix(Int(count)))
    }

    /// A bounds-checked reader over the blob.
    private struct Reader {
        private let data: Data
        private var offset: Int

        init(_ data: Data) {
            self.data = data
            offset = data.startIndex
        }

        var isAtEnd: Bool { offset == data.endIndex }

        mutating func bytes(_ count: Int) -> Data? {
            guard count >= 0, data.endIndex - offset >= count else { return nil }
            defer { offset += count }
            return data[offset..<offset + count]
        }

        mutating func byte() -> UInt8? { bytes(1)?.first }

        mutating func uint64() -> UInt64? {
            bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
        }

        mutating func sized() -> Data? {
            guard let length = bytes(2) else { return nil }
            return bytes(Int(length[length.startIndex]) << 8 | Int(length[length.startIndex + 1])).map { Data($0) }
        }
    }
}
