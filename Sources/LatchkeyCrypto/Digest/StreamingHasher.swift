import COpenSSL
import Foundation

/// Incremental hashing with value semantics: copying a hasher forks its state (copy on write).
///
/// ```swift
/// var hasher = SHA256.Hasher()
/// hasher.update(data: part1)
/// hasher.update(data: part2)
/// let digest = hasher.finalize()
/// ```
public struct StreamingHasher<H: FixedHashFunction> {
    private var state: DigestContext

    /// Starts a new hash.
    public init() {
        state = DigestContext(algorithm: H.algorithm)
    }

    /// Adds `data` to the hash.
    public mutating func update(data: some DataProtocol) {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
        let context = state
        ContiguousInput.with(data) { input in
            if input.count > 0 { context.update(input) }
        }
    }

    /// Adds `data` to the hash (fast path for `Data`).
    public mutating func update(data: Data) {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
        let context = state
        data.withUnsafeBytes { input in
            if input.count > 0 { context.update(input) }
        }
    }

    /// Returns the digest of everything added so far; the hasher can keep being updated afterwards.
    public func finalize() -> H.Digest {
        let finished = state.copy()
        guard let type = H.Digest.self as? any HashOutput.Type,
              let digest = type.init(writing: { finished.finish(into: $0) }) as? H.Digest
        else { HashOutputFailure.trap("\(H.self)") }
        return digest
    }
}

/// One `EVP_MD_CTX`, owned by exactly one hasher value at a time.
final class DigestContext {
    private let context: OpaquePointer?
    private let algorithm: HashAlgorithm
    private var failed = false

    init(algorithm: HashAlgorithm) {
        self.algorithm = algorithm
        context = EVP_MD_CTX_new()
        if EVP_DigestInit_ex2(context, algorithm.evpMD, nil) != 1 { failed = true }
    }

    private init(copying other: DigestContext) {
        algorithm = other.algorithm
        context = EVP_MD_CTX_new()
        failed = other.failed || EVP_MD_CTX_copy_ex(context, other.context) != 1
    }

    deinit { EVP_MD_CTX_free(context) }

    func copy() -> DigestContext { DigestContext(copying: self) }

    func update(_ input: UnsafeRawBufferPointer) {
        if EVP_DigestUpdate(context, input.baseAddress, input.count) != 1 { failed = true }
    }

    /// Writes the digest into `out` (exactly the digest's size); false when OpenSSL failed at any step.
    func finish(into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard !failed, out.count == algorithm.outputByteCount else { return false }
        return EVP_DigestFinal_ex(context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil) == 1
    }
}
