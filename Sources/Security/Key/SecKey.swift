#if os(Linux)
import Foundation
import LatchkeyCrypto
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// `SecKey`: a P-256 key, private or public, or an RSA public key (from a certificate or
/// `SecKeyCreateWithData`: exported and compared, not signed or verified with). A key made with
/// `kSecAttrTokenIDSecureEnclave` is non-exportable: it lives in the vault (when permanent) and
/// `SecKeyCopyExternalRepresentation` refuses it — it is *not* held by hardware.
public final class SecKey: Hashable, @unchecked Sendable { // immutable
    enum Material {
        case privateKey(P256.Signing.PrivateKey)
        case publicKey(P256.Signing.PublicKey)
        case rsaPublicKey(RSA.Signing.PublicKey)
    }

    let material: Material
    let exportable: Bool

    init(_ material: Material, exportable: Bool) {
        self.material = material
        self.exportable = exportable
    }

    /// The P-256 public key (nil for RSA keys).
    var publicKey: P256.Signing.PublicKey? {
        switch material {
        case let .privateKey(k): k.publicKey
        case let .publicKey(k): k
        case .rsaPublicKey: nil
        }
    }

    /// The public half as its own key.
    var publicPart: SecKey {
        if case let .privateKey(k) = material { return SecKey(.publicKey(k.publicKey), exportable: true) }
        return SecKey(material, exportable: true)
    }

    var isPrivate: Bool {
        if case .privateKey = material { return true }
        return false
    }

    /// Apple's external representation: 04‖x‖y for public keys, 04‖x‖y‖d for private keys, PKCS#1
    /// `RSAPublicKey` for RSA public keys.
    var externalRepresentation: Data? {
        switch material {
        case let .privateKey(k): (try? k.rawRepresentation).map { k.publicKey.x963Representation + $0 }
        case let .publicKey(k): k.x963Representation
        case let .rsaPublicKey(k): try? k.pkcs1DERRepresentation
        }
    }

    /// The item value stored for this key in the keychain (the external representation).
    var storedValue: Data { externalRepresentation ?? Data() }

    /// The attributes Apple gives a key item (class, type, size, exportability).
    var itemAttributes: [String: Any] {
        if case let .rsaPublicKey(k) = material {
            return [QueryKeys.itemClass: "keys", "kcls": "0", "type": "42", "bsiz": k.keySizeInBits, "extr": exportable]
        }
        return [QueryKeys.itemClass: "keys", "kcls": isPrivate ? "1" : "0", "type": "73", "bsiz": 256, "extr": exportable]
    }

    /// A P-256 key from its external representation, or with `rsa` an RSA public key from PKCS#1 or
    /// SubjectPublicKeyInfo DER; nil when the bytes are not such a key.
    static func fromExternal(_ data: Data, privateKey: Bool, exportable: Bool, rsa: Bool = false) -> SecKey? {
        if rsa {
            guard !privateKey, let k = try? RSA.Signing.PublicKey(derRepresentation: data) else { return nil }
            return SecKey(.rsaPublicKey(k), exportable: exportable)
        }
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
        let isPrivate = item.attributes.keyClass == "1"
        let exportable = item.attributes.values[.isExtractable].map {
            AttributeKey.isExtractable.comparable($0, for: item.attributes.itemClass) != .int(0)
        } ?? true
        guard let key = SecKey.fromExternal(item.value, privateKey: isPrivate, exportable: exportable,
                                            rsa: item.attributes.keyType == "42") else { return nil }
        self.init(key.material, exportable: exportable)
    }

    /// The RSA public key (nil for P-256 keys).
    var rsaPublicKey: RSA.Signing.PublicKey? {
        if case let .rsaPublicKey(k) = material { return k }
        return nil
    }

    public static func == (a: SecKey, b: SecKey) -> Bool {
        a.isPrivate == b.isPrivate && a.publicKey == b.publicKey && a.rsaPublicKey == b.rsaPublicKey
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isPrivate)
        hasher.combine(publicKey)
        hasher.combine(rsaPublicKey)
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
