import COpenSSL
import Foundation
import LatchkeySupport

/// One-shot `EVP_DigestSign` / `EVP_DigestVerify`, shared by every signature scheme.
package enum EVPSignature {
    /// Signs `data`; `md` is nil for Ed25519. `configure` adjusts the EVP_PKEY_CTX (RSA padding).
    package static func sign(_ key: EVPKey, md: OpaquePointer?, data: some DataProtocol,
                     configure: (OpaquePointer) -> Bool = { _ in true }) throws(CryptoError) -> Data {
        guard let ctx = EVP_MD_CTX_new() else { throw .libraryFailure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(ctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestSignInit(ctx, &pctx, md, nil, key.pointer) == 1, let pctx, configure(pctx) else {
            ERR_clear_error(); throw .libraryFailure("EVP_DigestSignInit")
        }
        let signature: Data? = withContiguousBytes(of: data) { buf in
            var length = 0
            guard EVP_DigestSign(ctx, nil, &length, bytePointer(buf), buf.count) == 1, length > 0 else { return nil }
            var out = Data(count: length)
            let ok = out.withUnsafeMutableBytes { sig in
                EVP_DigestSign(ctx, sig.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
                               bytePointer(buf), buf.count)
            }
            guard ok == 1 else { return nil }
            out.count = length
            return out
        }
        guard let signature else { ERR_clear_error(); throw .libraryFailure("EVP_DigestSign") }
        return signature
    }

    /// True when `signature` is valid for `data` under `key`.
    package static func verify(_ key: EVPKey, md: OpaquePointer?, signature: Data, data: some DataProtocol,
                       configure: (OpaquePointer) -> Bool = { _ in true }) -> Bool {
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestVerifyInit(ctx, &pctx, md, nil, key.pointer) == 1, let pctx, configure(pctx) else {
            ERR_clear_error(); return false
        }
        let status = signature.withUnsafeBytes { sig in
            withContiguousBytes(of: data) { buf in
                EVP_DigestVerify(ctx, bytePointer(sig), sig.count, bytePointer(buf), buf.count)
            }
        }
        if status != 1 { ERR_clear_error() }
        return status == 1
    }
}
