#if os(Linux)
import CryptoKit
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LatchkeyOpenSSL
import LatchkeySupport
import LocalAuthentication

/// `SecKey`: an elliptic-curve key (P-256, P-384, P-521) or an RSA key (2048–8192 bits from
/// `SecKeyCreateRandomKey`; any size from `SecKeyCreateWithData` or a certificate), private or public, over
/// OpenSSL — or a P-256 private key made with `kSecAttrTokenIDSecureEnclave`, which lives in a TPM 2.0 and is used
/// there (`SecureEnclaveToken`): the process holds only the TPM's blob of it.
public final class SecKey: Hashable {
    enum Material {
        case ec(ECCurve, EVPKey, isPrivate: Bool)
        case rsa(RSAKey, isPrivate: Bool)
        /// A Secure Enclave private key (P-256, in the TPM), with the LocalAuthentication context its uses evaluate.
        case secureEnclave(SecureEnclaveKey)
    }

    let material: Material
    let exportable: Bool
    /// Apple's external representation of the public half (04‖x‖y, or PKCS#1 `RSAPublicKey`), for `==`.
    let publicBytes: Data

    init(_ material: Material, exportable: Bool) throws(CryptoError) {
        self.material = material
        self.exportable = exportable
        switch material {
        case let .ec(curve, key, _): publicBytes = try curve.x963(of: key)
        case let .rsa(key, _): publicBytes = try DERKeys.rsaPKCS1(of: key.publicOnly().key)
        case let .secureEnclave(key): publicBytes = key.x963PublicKey
        }
    }

    var isPrivate: Bool {
        switch material {
        case let .ec(_, _, isPrivate), let .rsa(_, isPrivate): isPrivate
        case .secureEnclave: true
        }
    }

    /// The Secure Enclave key, when this is one.
    var secureEnclaveKey: SecureEnclaveKey? {
        if case let .secureEnclave(key) = material { return key }
        return nil
    }

    var isRSA: Bool {
        if case .rsa = material { return true }
        return false
    }

    /// The key size in bits (256, 384, 521 for EC; the modulus size for RSA).
    var bits: Int {
        switch material {
        case let .ec(curve, _, _): curve == .p521 ? 521 : curve.size * 8
        case let .rsa(key, _): key.bits
        case .secureEnclave: 256
        }
    }

    /// The public half as its own key.
    var publicPart: SecKey? {
        guard isPrivate else { return self }
        switch material {
        case let .ec(curve, key, _):
            return try? SecKey(.ec(curve, DERKeys.publicOnly(key), isPrivate: false), exportable: true)
        case let .rsa(key, _):
            return try? SecKey(.rsa(key.publicOnly(), isPrivate: false), exportable: true)
        case .secureEnclave:
            return (try? ECCurve.p256.publicKey(x963: publicBytes)).flatMap {
                try? SecKey(.ec(.p256, $0, isPrivate: false), exportable: true)
            }
        }
    }

    /// Apple's external representation: 04‖x‖y (EC public), 04‖x‖y‖d (EC private), PKCS#1 `RSAPublicKey` or
    /// `RSAPrivateKey` DER (RSA).
    var externalRepresentation: Data? {
        switch material {
        case let .ec(curve, key, isPrivate):
            guard isPrivate else { return publicBytes }
            return (try? curve.scalar(of: key)).map { publicBytes + $0 }
        case let .rsa(key, isPrivate):
            return isPrivate ? try? DERKeys.rsaPrivatePKCS1(of: key.key) : publicBytes
        case .secureEnclave:
            return nil
        }
    }

    /// The item value stored for this key in the keychain: the external representation, or a Secure Enclave key's
    /// TPM blob (Apple's keychain likewise keeps the Secure Enclave's wrapping of the key).
    var storedValue: Data { secureEnclaveKey?.dataRepresentation ?? externalRepresentation ?? Data() }

    /// The attributes Apple gives a key item (class, type, size, exportability; a Secure Enclave key's token, label
    /// and access control, `SecureEnclaveToken.itemAttributes`).
    var itemAttributes: [String: Any] {
        var attributes: [String: Any] = [QueryKeys.itemClass: "keys", "kcls": isPrivate ? "1" : "0",
                                         "type": isRSA ? "42" : "73", "bsiz": bits, "esiz": bits, "extr": exportable]
        if let key = secureEnclaveKey { attributes.merge(SecureEnclaveToken.itemAttributes(of: key)) { _, token in token } }
        return attributes
    }

    /// The EC curve of a key of `bits` bits.
    static func curve(bits: Int) -> ECCurve? {
        switch bits {
        case 256: .p256
        case 384: .p384
        case 521: .p521
        default: nil
        }
    }

    /// A key from Apple's external representation: with `rsa`, PKCS#1 `RSAPrivateKey` / `RSAPublicKey` (or
    /// SubjectPublicKeyInfo) DER; else an EC key whose curve follows from the length. Nil when the bytes are not
    /// such a key.
    static func fromExternal(_ data: Data, privateKey: Bool, exportable: Bool, rsa: Bool = false) -> SecKey? {
        if rsa {
            if privateKey {
                guard let key = try? RSAKey(DERKeys.privateKey(data)), key.isPrivate else { return nil }
                return try? SecKey(.rsa(key, isPrivate: true), exportable: exportable)
            }
            let key = (try? RSAKey(DERKeys.rsaPublicKey(pkcs1: data))) ?? (try? RSAKey(DERKeys.publicKey(spki: data)))
            return key.flatMap { try? SecKey(.rsa($0, isPrivate: false), exportable: exportable) }
        }
        guard data.first == 0x04 else { return nil }
        for curve in [ECCurve.p256, .p384, .p521] {
            if privateKey, data.count == 1 + 3 * curve.size {
                guard let key = try? curve.privateKey(scalar: data.suffix(curve.size)),
                      let made = try? SecKey(.ec(curve, key, isPrivate: true), exportable: exportable),
                      made.publicBytes == data.prefix(1 + 2 * curve.size) else { return nil }
                return made
            }
            if !privateKey, data.count == 1 + 2 * curve.size {
                guard let key = try? curve.publicKey(x963: data) else { return nil }
                return try? SecKey(.ec(curve, key, isPrivate: false), exportable: exportable)
            }
        }
        return nil
    }

    /// A public key from SubjectPublicKeyInfo DER (certificates): EC on P-256/384/521, or RSA.
    static func fromSubjectPublicKeyInfo(_ spki: Data) -> SecKey? {
        guard let key = try? DERKeys.publicKey(spki: spki) else { return nil }
        if key.isA("RSA") { return (try? RSAKey(key)).flatMap { try? SecKey(.rsa($0, isPrivate: false), exportable: true) } }
        for curve in [ECCurve.p256, .p384, .p521] where (try? curve.check(key)) != nil {
            return try? SecKey(.ec(curve, key, isPrivate: false), exportable: true)
        }
        return nil
    }

    /// The key a keychain item holds; a Secure Enclave key uses `context` and says `operationPrompt` when it asks.
    convenience init?(storedItem item: Item, context: LAContext? = nil, operationPrompt: String? = nil) {
        if SecureEnclaveToken.holds(item.attributes) {
            guard var key = try? SecureEnclaveKey(signingAndKeyAgreementBlob: item.value, context: context) else { return nil }
            key.operationPrompt = operationPrompt
            try? self.init(.secureEnclave(key), exportable: false)
            return
        }
        let isPrivate = item.attributes.keyClass == "1"
        let exportable = item.attributes.values[.isExtractable].map {
            AttributeKey.isExtractable.comparable($0, for: item.attributes.itemClass) != .int(0)
        } ?? true
        guard let key = SecKey.fromExternal(item.value, privateKey: isPrivate, exportable: exportable,
                                            rsa: item.attributes.keyType == "42") else { return nil }
        try? self.init(key.material, exportable: exportable)
    }

    public static func == (a: SecKey, b: SecKey) -> Bool {
        a.isPrivate == b.isPrivate && a.isRSA == b.isRSA && a.publicBytes == b.publicBytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isPrivate)
        hasher.combine(publicBytes)
    }
}

/// `SecKeyOperationType`, with Apple's raw values (SecKey.h).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public enum SecKeyOperationType: Int, Sendable {
    case sign = 0
    case verify = 1
    case encrypt = 2
    case decrypt = 3
    case keyExchange = 4
}
#endif
