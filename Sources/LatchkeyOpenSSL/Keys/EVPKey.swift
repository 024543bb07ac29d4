import COpenSSL
import Foundation
import LatchkeySupport

/// An OpenSSL `EVP_PKEY` owned by Swift and freed when the last reference goes away.
///
/// OpenSSL frees (and, for private keys, clears) the key material in `EVP_PKEY_free`.
/// Its signing and verifying contexts (`PreparedPKeyContexts`) are made on first use and freed with it.
// @unchecked Sendable: the EVP_PKEY is never mutated after creation, and OpenSSL 3 allows concurrent read-only use;
// the prepared contexts are only used under their mutex.
package final class EVPKey: @unchecked Sendable {
    package let pointer: OpaquePointer
    /// Contexts initialized for signing / verifying digests with this key (see `PreparedPKeyContexts`).
    package let prepared = Locked(PreparedPKeyContexts())

    package init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }  // the prepared contexts hold their own references, freed right after

    /// `EVP_PKEY_fromdata` selections (the C macros are compound and not imported by Swift).
    package static let selectParameters: Int32 = 0x84 // EVP_PKEY_KEY_PARAMETERS
    package static let selectPublic: Int32 = 0x86   // EVP_PKEY_PUBLIC_KEY
    package static let selectKeyPair: Int32 = 0x87  // EVP_PKEY_KEYPAIR

    /// Builds a key of `type` ("EC", "RSA") from the OSSL_PARAMs that `build` pushes.
    package static func fromData(type: String, selection: Int32,
                         _ build: (ParamBuilder) -> Bool) throws(CryptoError) -> EVPKey {
        guard let builder = ParamBuilder() else { throw .libraryFailure("OSSL_PARAM_BLD_new") }
        guard build(builder), let params = OSSL_PARAM_BLD_to_param(builder.pointer) else {
            ERR_clear_error(); throw .libraryFailure("OSSL_PARAM_BLD_to_param")
        }
        defer { OSSL_PARAM_free(params); withExtendedLifetime(builder) {} }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        guard EVP_PKEY_fromdata_init(ctx) == 1, EVP_PKEY_fromdata(ctx, &pkey, selection, params) == 1, let pkey else {
            ERR_clear_error(); throw .malformedInput("key parameters")
        }
        return EVPKey(taking: pkey)
    }

    /// Generates a key of `type`; `configure` sets the group or size on the keygen context.
    package static func generate(type: String, _ configure: (OpaquePointer) -> Bool) throws(CryptoError) -> EVPKey {
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        guard EVP_PKEY_keygen_init(ctx) == 1, configure(ctx), EVP_PKEY_generate(ctx, &pkey) == 1, let pkey else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_generate")
        }
        return EVPKey(taking: pkey)
    }

    /// True when the key is of the named OpenSSL type ("EC", "RSA", "ED25519").
    package func isA(_ name: String) -> Bool { EVP_PKEY_is_a(pointer, name) == 1 }

    package var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// A big-number parameter ("n", "e", "qx", "priv") as big-endian bytes, left-padded to `width` when given.
    /// Intermediate BIGNUMs are cleared before being freed.
    package func bigNumber(_ name: String, width: Int? = nil) throws(CryptoError) -> Data {
        var bn: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, name, &bn) == 1, let bn else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_get_bn_param(\(name))")
        }
        defer { BN_clear_free(bn) }
        let natural = (Int(BN_num_bits(bn)) + 7) / 8
        let size = width ?? natural
        guard natural <= size else { throw .malformedInput("parameter \(name) too long") }
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { buf in
            BN_bn2binpad(bn, buf.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(size))
        }
        guard written == Int32(size) else { throw .libraryFailure("BN_bn2binpad") }
        return out
    }
}

/// Runs `body` over the bytes of any `DataProtocol` value, copying only when they are not contiguous.
@inline(__always)
package func withContiguousBytes<R>(of data: some DataProtocol, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if let data = data as? Data { return data.withUnsafeBytes(body) }
    if let result = data.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
    return Array(data).withUnsafeBytes(body)
}

/// A non-null pointer to the first byte (OpenSSL rejects some NULL inputs even with length 0).
@inline(__always)
package func bytePointer(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
    if let base = buffer.baseAddress { return base.assumingMemoryBound(to: UInt8.self) }
    return UnsafePointer(emptyByte)
}

// nonisolated(unsafe): a one-byte buffer allocated once and never written after initialisation.
nonisolated(unsafe) private let emptyByte: UnsafeMutablePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
}()

/// Owns a BIGNUM created from big-endian bytes.
package final class BIGNUMBox {
    package let pointer: OpaquePointer
    package init(_ bytes: Data) throws(CryptoError) {
        let bn = bytes.withUnsafeBytes { BN_bin2bn(bytePointer($0), Int32($0.count), nil) }
        guard let bn else { throw .libraryFailure("BN_bin2bn") }
        pointer = bn
    }
    deinit { BN_clear_free(pointer) }
}

/// An `OSSL_PARAM_BLD` that owns copies of every name and value pushed onto it: OpenSSL keeps the
/// pointers (not copies) until `OSSL_PARAM_BLD_to_param`, and the names even inside the resulting params.
package final class ParamBuilder {
    package let pointer: OpaquePointer
    private var allocations: [(UnsafeMutableRawPointer, Int)] = []
    private var numbers: [BIGNUMBox] = []

    package init?() {
        guard let bld = OSSL_PARAM_BLD_new() else { return nil }
        pointer = bld
    }

    deinit {
        OSSL_PARAM_BLD_free(pointer)
        for (p, n) in allocations { OPENSSL_cleanse(p, n); p.deallocate() }
    }

    private func copy(_ bytes: UnsafeRawBufferPointer, terminate: Bool) -> UnsafeMutableRawPointer {
        let n = bytes.count + (terminate ? 1 : 0)
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(n, 1), alignment: 8)
        if let base = bytes.baseAddress { p.copyMemory(from: base, byteCount: bytes.count) }
        if terminate { p.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self) }
        allocations.append((p, max(n, 1)))
        return p
    }

    private func name(_ key: String) -> UnsafePointer<CChar> {
        var key = key
        return UnsafePointer(key.withUTF8 { copy(UnsafeRawBufferPointer($0), terminate: true) }
            .assumingMemoryBound(to: CChar.self))
    }

    package func utf8(_ key: String, _ value: String) -> Bool {
        var value = value
        let v = value.withUTF8 { copy(UnsafeRawBufferPointer($0), terminate: true) }.assumingMemoryBound(to: CChar.self)
        return OSSL_PARAM_BLD_push_utf8_string(pointer, name(key), v, 0) == 1
    }

    package func octets(_ key: String, _ value: Data) -> Bool {
        let v = value.withUnsafeBytes { copy($0, terminate: false) }
        return OSSL_PARAM_BLD_push_octet_string(pointer, name(key), v, value.count) == 1
    }

    package func bigNumber(_ key: String, _ value: BIGNUMBox) -> Bool {
        numbers.append(value)
        return OSSL_PARAM_BLD_push_BN(pointer, name(key), value.pointer) == 1
    }
}
