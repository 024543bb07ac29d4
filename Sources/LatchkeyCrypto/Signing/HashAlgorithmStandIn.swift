// TEMPORARY stand-in until crypto-core's HashAlgorithm lands; deleted when crypto-core is merged.
/// A hash function used by the signature schemes.
public enum HashAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha256, sha384, sha512
}
