#if os(Linux)
import Foundation
import LatchkeyCrypto
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

// SecKey functions over LatchkeyCrypto's P-256 (OpenSSL). Failures set `error` to an NSError in
// NSOSStatusErrorDomain and return nil/false, as Apple's do.

private func fail(_ status: OSStatus, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
    error?.pointee = Unmanaged.passRetained(SecurityErrors.error(status))
}

private func swiftDictionary(_ d: Any?) -> [String: Any] {
    guard let d = d as? NSDictionary else { return [:] }
    var out: [String: Any] = [:]
    for (k, v) in d { if let key = (k as? String) ?? (k as? NSString).map({ String($0) }) { out[key] = v } }
    return out
}

private func isTrue(_ v: Any?) -> Bool {
    if let b = v as? Bool { return b }
    if let n = v as? NSNumber { return n.boolValue }
    return false
}

private func keyType(_ p: [String: Any]) -> String? {
    (p["type"] as? String) ?? (p["type"] as? NSString).map { String($0) } ?? (p["type"] as? NSNumber)?.stringValue
}

private func isP256(_ p: [String: Any]) -> Bool {
    let type = keyType(p)
    guard type == nil || type == "73" else { return false }
    let size = p["bsiz"]
    let bits = (size as? Int) ?? (size as? NSNumber)?.intValue ?? (size as? String).flatMap { Int($0) }
    return size == nil || bits == 256
}

/// `SecKeyCreateRandomKey`: a new P-256 private key (`kSecAttrKeyTypeECSECPrimeRandom`, 256 bits).
/// With `kSecAttrIsPermanent` in `kSecPrivateKeyAttrs` it is also added to the keychain (class key,
/// with that dictionary's tag, label and access control). `kSecAttrTokenIDSecureEnclave` makes it non-exportable.
@discardableResult
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    let p = swiftDictionary(parameters)
    guard isP256(p) else { fail(errSecParam, error); return nil }
    let secureEnclave = ((p["tkid"] as? String) ?? (p["tkid"] as? NSString).map { String($0) }) == "com.apple.setoken"
    guard let privateKey = try? P256.Signing.PrivateKey() else { fail(errSecInternalComponent, error); return nil }
    let key = SecKey(.privateKey(privateKey), exportable: !secureEnclave)
    var attrs = swiftDictionary(p["private"])
    if attrs.isEmpty { attrs = p.filter { ["perm", "atag", "labl", "accc"].contains($0.key) } }
    guard isTrue(attrs["perm"]) || isTrue(p["perm"]) else { return key }
    var item = key.itemAttributes
    for k in ["atag", "labl", "accc", "agrp", "klbl"] { if let v = attrs[k] ?? p[k] { item[k] = v } }
    item[QueryKeys.valueData] = key.storedValue
    if let ctx = attrs["u_AuthCtx"] ?? p["u_AuthCtx"] { item["u_AuthCtx"] = ctx }
    let status = SecItemAdd(SecurityBridge.object(item) as? NSDictionary ?? NSDictionary(), nil)
    guard status == errSecSuccess else { fail(status, error); return nil }
    return key
}

/// `SecKeyCopyPublicKey`.
@discardableResult
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    key.publicPart
}

/// `SecKeyCopyExternalRepresentation`: 04‖x‖y (public), 04‖x‖y‖d (private) or PKCS#1 (RSA public); fails for
/// non-exportable (`kSecAttrTokenIDSecureEnclave`) private keys.
@discardableResult
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    guard key.exportable || !key.isPrivate else { fail(errSecKeyIsSensitive, error); return nil }
    guard let data = key.externalRepresentation else { fail(errSecInternalComponent, error); return nil }
    return NSData(data: data)
}

/// `SecKeyCreateWithData`: a key from its external representation; `attributes` must give
/// `kSecAttrKeyClass` and may give the EC key type and 256 bits. With `kSecAttrKeyTypeRSA`, an RSA public
/// key from PKCS#1 `RSAPublicKey` (or SubjectPublicKeyInfo) DER; RSA private keys → errSecParam.
@discardableResult
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary,
                                 _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    let p = swiftDictionary(attributes)
    let rsa = keyType(p) == "42"
    guard rsa || isP256(p) else { fail(errSecParam, error); return nil }
    let cls = (p["kcls"] as? String) ?? (p["kcls"] as? NSString).map { String($0) } ?? (p["kcls"] as? NSNumber)?.stringValue
    guard !rsa || cls != "1" else { fail(errSecParam, error); return nil }
    guard let key = SecKey.fromExternal(keyData as Data, privateKey: cls == "1", exportable: true, rsa: rsa) else {
        fail(errSecDecode, error); return nil
    }
    return key
}

/// `SecKeyIsAlgorithmSupported`: ECDSA P-256 signing and verification of a message hashed with SHA-256
/// (`.ecdsaSignatureMessageX962SHA256`) or of a SHA-256 digest (`.ecdsaSignatureDigestX962SHA256`).
@discardableResult
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
    guard key.publicKey != nil,
          algorithm == .ecdsaSignatureMessageX962SHA256 || algorithm == .ecdsaSignatureDigestX962SHA256 else { return false }
    switch operation {
    case .sign: return key.isPrivate
    case .verify: return true
    default: return false
    }
}

/// `SecKeyCreateSignature`: a DER (X9.62) ECDSA signature of the message hashed with SHA-256
/// (`.ecdsaSignatureMessageX962SHA256`), or of a precomputed SHA-256 digest (`.ecdsaSignatureDigestX962SHA256`,
/// exactly 32 bytes; another length → errSecParam). Other algorithms → errSecUnimplemented.
@discardableResult
public func SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    let digest = algorithm == .ecdsaSignatureDigestX962SHA256
    guard digest || algorithm == .ecdsaSignatureMessageX962SHA256 else { fail(errSecUnimplemented, error); return nil }
    guard case let .privateKey(k) = key.material else { fail(errSecParam, error); return nil }
    let data = dataToSign as Data
    guard !digest || data.count == SHA256.byteCount else { fail(errSecParam, error); return nil }
    let signature = digest ? try? k.signature(forDigest: data) : try? k.signature(for: data)
    guard let signature else { fail(errSecInternalComponent, error); return nil }
    return NSData(data: signature.derRepresentation)
}

/// `SecKeyVerifySignature`: checks a DER ECDSA signature of a message or of a SHA-256 digest (the algorithms
/// `SecKeyCreateSignature` makes); false with errSecVerifyFailed when it does not match, errSecParam for a
/// digest that is not 32 bytes.
@discardableResult
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool {
    let digest = algorithm == .ecdsaSignatureDigestX962SHA256
    guard digest || algorithm == .ecdsaSignatureMessageX962SHA256, let publicKey = key.publicKey else {
        fail(errSecUnimplemented, error); return false
    }
    let data = signedData as Data
    guard !digest || data.count == SHA256.byteCount else { fail(errSecParam, error); return false }
    guard let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature as Data),
          digest ? publicKey.isValidSignature(sig, forDigest: data) : publicKey.isValidSignature(sig, for: data)
    else {
        fail(errSecVerifyFailed, error); return false
    }
    return true
}

/// `SecKeyCopyAttributes`: class, type, size and whether the key can be exported.
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    var d = key.itemAttributes
    d[QueryKeys.itemClass] = nil
    d["kcls"] = key.isPrivate ? "1" : "0"
    return SecurityBridge.object(d) as? NSDictionary
}
#endif
