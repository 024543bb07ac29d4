#if os(Linux)
import Foundation
import LatchkeyCrypto
import LatchkeyKeychain

/// `SecKey`: a P-256 key (the only key type of this facade), private or public. A key made with
/// `kSecAttrTokenIDSecureEnclave` is non-exportable: it lives in the vault (when permanent) and
/// `SecKeyCopyExternalRepresentation` refuses it — it is *not* held by hardware.
public final class SecKey: Hashable, @unchecked Sendable { // immutable
    enum Material {
        case privateKey(P256.Signing.PrivateKey)
        case publicKey(P256.Signing.PublicKey)
    }

    let material: Material
    let exportable: Bool

    init(_ material: Material, exportable: Bool) {
        self.material = material
        self.exportable = exportable
    }

    var publicKey: P256.Signing.PublicKey {
        switch material {
        case let .privateKey(k): k.publicKey
        case let .publicKey(k): k
        }
    }

    var isPrivate: Bool {
        if case .privateKey = material { return true }
        return false
    }

    /// Apple's external representation: 04‖x‖y for public keys, 04‖x‖y‖d for private keys.
    var externalRepresentation: Data? {
        switch material {
        case let .privateKey(k): (try? k.rawRepresentation).map { k.publicKey.x963Representation + $0 }
        case let .publicKey(k): k.x963Representation
        }
    }

    /// The item value stored for this key in the keychain (the external representation).
    var storedValue: Data { externalRepresentation ?? Data() }

    /// The attributes Apple gives a key item (class, type, size, exportability).
    var itemAttributes: [String: Any] {
        [QueryKeys.itemClass: "keys", "kcls": isPrivate ? "1" : "0", "type": "73", "bsiz": 256, "extr": exportable]
    }

    /// A key from its external representation (nil when the bytes are not a P-256 key).
    static func fromExternal(_ data: Data, privateKey: Bool, exportable: Bool) -> SecKey? {
        if privateKey {
            guard data.count == 97, data.first == 4 else { return nil }
            guard let k = try? P256.Signing.PrivateKey(rawRepresentation: data.suffix(32)),
                  k.publicKey.x963Representation == data.prefix(65) else { return nil }
            return SecKey(.privateKey(k), exportable: exportable)
        }
        guard let k = try? P256.Signing.PublicKey(x963Representation: data) else { return nil }
        return SecKey(.publicKey(k), exportable: exportable)
    }

    /// The key a keychain item holds.
    convenience init?(storedItem item: Item) {
        let isPrivate = item.attributes.values[.keyClass] == .string("1")
        let exportable = item.attributes.values[.isExtractable] != .bool(false)
        guard let key = SecKey.fromExternal(item.value, privateKey: isPrivate, exportable: exportable) else { return nil }
        self.init(key.material, exportable: exportable)
    }

    public static func == (a: SecKey, b: SecKey) -> Bool {
        a.isPrivate == b.isPrivate && a.publicKey == b.publicKey
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isPrivate)
        hasher.combine(publicKey)
    }
}

/// `SecKeyAlgorithm`, with Apple's raw strings. Implemented: `.ecdsaSignatureMessageX962SHA256` and `.ecdsaSignatureDigestX962SHA256`.
public struct SecKeyAlgorithm: RawRepresentable, Hashable, Sendable {
    private let name: String
    /// The algorithm's Core Foundation string.
    public var rawValue: CFString { name as NSString }
    public init(rawValue: CFString) { name = rawValue as String }
    init(_ s: String) { name = s }

    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA256")
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA256")
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA384")
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA512")
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962")
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm("algid:keyexchange:ECDH:standard")
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM =
        SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")

}

/// `SecKeyOperationType`.
public enum SecKeyOperationType: Int, Sendable {
    case encrypt = 0, decrypt = 1, sign = 2, verify = 3, keyExchange = 4
}

/// `kSecKeyAlgorithmECDSASignatureMessageX962SHA256`.
nonisolated(unsafe) public let kSecKeyAlgorithmECDSASignatureMessageX962SHA256: CFString =
    SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256.rawValue
/// `kSecKeyAlgorithmECDSASignatureDigestX962SHA256`.
nonisolated(unsafe) public let kSecKeyAlgorithmECDSASignatureDigestX962SHA256: CFString =
    SecKeyAlgorithm.ecdsaSignatureDigestX962SHA256.rawValue
#endif
