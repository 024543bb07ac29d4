import COpenSSL
import Foundation
import LatchkeySupport

/// An incremental OpenSSL digest (`EVP_MD_CTX`): the state behind CryptoKit's `SHA256()`, `update`, `finalize`.
/// A value type holding one copies it before a mutation when it is shared (`copy()`), so two copies of a hasher
/// never see each other's input.
package final class DigestContext {
    private let context: OpaquePointer?
    package let digest: OpenSSLDigest
    private var failed = false

    package init(digest: OpenSSLDigest) {
        self.digest = digest
        context = EVP_MD_CTX_new()
        if EVP_DigestInit_ex2(context, digest.evpMD, nil) != 1 { failed = true }
    }

    private init(copying other: DigestContext) {
        digest = other.digest
        context = EVP_MD_CTX_new()
        failed = other.failed || EVP_MD_CTX_copy_ex(context, other.context) != 1
    }

    deinit { EVP_MD_CTX_free(context) }

    /// An independent context in the same state.
    package func copy() -> DigestContext { DigestContext(copying: self) }

    /// Feeds `input`.
    package func update(_ input: UnsafeRawBufferPointer) {
        guard input.count > 0 else { return }
        if EVP_DigestUpdate(context, input.baseAddress, input.count) != 1 { failed = true }
    }

    /// Finishes a copy of the state into `out` (this context can go on); false when OpenSSL failed.
    package func finish(into out: UnsafeMutableRawBufferPointer) -> Bool {
        let finished = copy()
        guard !finished.failed, out.count == digest.byteCount else { return false }
        return EVP_DigestFinal_ex(finished.context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil) == 1
    }
}
