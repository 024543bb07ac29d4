#if os(Linux)
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LatchkeyOpenSSL
import LatchkeySupport

// SecKey functions over OpenSSL (LatchkeyOpenSSL): EC keys on P-256/384/521 and RSA keys — creation, import and
// export in Apple's external representations, ECDSA and RSA signatures, RSA encryption, ECDH. Failures set `error`
// to an NSError in NSOSStatusErrorDomain and return nil/false, as Apple's do.

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

private func string(_ v: Any?) -> String? {
    (v as? String) ?? (v as? NSString).map { String($0) } ?? (v as? NSNumber)?.stringValue
}

private func integer(_ v: Any?) -> Int? {
    (v as? Int) ?? (v as? NSNumber)?.intValue ?? (v as? String).flatMap { Int($0) } ?? (v as? NSString).flatMap { Int(String($0)) }
}

/// The key type asked for: "73" (`kSecAttrKeyTypeECSECPrimeRandom`, the default) or "42" (`kSecAttrKeyTypeRSA`).
private func requestsRSA(_ p: [String: Any]) -> Bool? {
    switch string(p["type"]) {
    case nil, "73": false
    case "42": true
    default: nil
    }
}

/// `SecKeyCreateRandomKey`: a new EC private key (`kSecAttrKeyTypeECSECPrimeRandom`, 256, 384 or 521 bits) or RSA
/// private key (`kSecAttrKeyTypeRSA`, 1024–8192 bits, default 2048). With `kSecAttrIsPermanent` in
/// `kSecPrivateKeyAttrs` (or the top level) it is also added to the keychain (class key, with that dictionary's tag,
/// label and access control). `kSecAttrTokenID: kSecAttrTokenIDSecureEnclave` makes a P-256 key in the TPM instead,
/// permanent unless `kSecAttrIsPermanent` is false (`SecureEnclaveToken`); `.privateKeyUsage` outside the Secure
/// Enclave is errSecParam, as Apple documents.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    let p = swiftDictionary(parameters)
    guard let rsa = requestsRSA(p) else { fail(errSecParam, error); return nil }
    let bits = integer(p["bsiz"]) ?? (rsa ? 2048 : 256)
    // Apple's merge: the private key's dictionary, then what the top level adds (kSecAttrTokenID only there).
    var attrs = swiftDictionary(p["private"])
    for (k, v) in p where attrs[k] == nil && !["private", "public", "type", "bsiz", "tkid"].contains(k) { attrs[k] = v }
    let key: SecKey
    let secureEnclave: Bool
    switch string(p["tkid"]) {
    case SecureEnclaveToken.identifier?:
        secureEnclave = true
        do throws(SecKeyFailure) {
            key = try SecureEnclaveToken.makeKey(rsa: rsa, bits: bits, parameters: attrs)
        } catch let failure {
            failure.report(error)
            return nil
        }
    case nil:
        secureEnclave = false
        if let control = attrs["accc"].flatMap({ try? QueryDictionary.accessControl($0) }), control.flags.contains(.privateKeyUsage) {
            fail(errSecParam, error); return nil
        }
        let made: SecKey?
        if rsa {
            guard (1024...8192).contains(bits), bits % 8 == 0 else { fail(errSecParam, error); return nil }
            made = (try? RSAKey.generate(bits: bits)).flatMap { try? SecKey(.rsa($0, isPrivate: true), exportable: true) }
        } else {
            guard let curve = SecKey.curve(bits: bits) else { fail(errSecParam, error); return nil }
            made = (try? curve.generate()).flatMap { try? SecKey(.ec(curve, $0, isPrivate: true), exportable: true) }
        }
        guard let made else { fail(errSecInternalComponent, error); return nil }
        key = made
    default:
        // Tokens other than the Secure Enclave (CryptoTokenKit's) do not exist here.
        fail(errSecParam, error); return nil
    }
    guard attrs["perm"].map({ isTrue($0) }) ?? secureEnclave else { return key }
    // As Apple's `add_key`: the key by reference (its own attributes; a token key's access control is its own).
    var item: [String: Any] = [QueryKeys.itemClass: "keys", QueryKeys.valueRef: key]
    for k in ["atag", "labl", "agrp", "klbl", "u_AuthCtx"] { if let v = attrs[k] { item[k] = v } }
    if !secureEnclave, let v = attrs["accc"] { item["accc"] = v }
    let status = SecItemAdd(NSDictionary(dictionary: item), nil)
    guard status == errSecSuccess else { fail(status, error); return nil }
    return key
}

/// `SecKeyCopyPublicKey`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    key.publicPart
}

/// `SecKeyCopyExternalRepresentation`: 04‖x‖y (EC public), 04‖x‖y‖d (EC private), PKCS#1 DER (RSA). A Secure Enclave
/// private key has none: errSecUnimplemented, as Apple's token keys ("export not implemented"); another
/// non-exportable private key errSecKeyIsSensitive.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    guard key.secureEnclaveKey == nil else { fail(errSecUnimplemented, error); return nil }
    guard key.exportable || !key.isPrivate else { fail(errSecKeyIsSensitive, error); return nil }
    guard let data = key.externalRepresentation else { fail(errSecInternalComponent, error); return nil }
    return NSData(data: data)
}

/// `SecKeyCreateWithData`: a key from its external representation; `attributes` give `kSecAttrKeyClass` and may
/// give the key type (EC by default) and size (for EC it must agree with the data's length). Bytes that are not such
/// a key → errSecParam, as on Apple platforms.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary,
                                 _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    let p = swiftDictionary(attributes)
    guard let rsa = requestsRSA(p) else { fail(errSecParam, error); return nil }
    let cls = string(p["kcls"])
    // Apple answers errSecParam ("… key creation from data failed") for bytes that are not such a key.
    guard let key = SecKey.fromExternal(keyData as Data, privateKey: cls == "1", exportable: true, rsa: rsa) else {
        fail(errSecParam, error); return nil
    }
    if let bits = integer(p["bsiz"]), !rsa, bits != key.bits { fail(errSecParam, error); return nil }
    return key
}

/// `SecKeyGetBlockSize`: the size of signatures and ciphertexts in bytes (RSA: the modulus; EC: a coordinate).
@available(macOS 10.6, *)
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    (key.bits + 7) / 8
}

/// `SecKeyIsAlgorithmSupported`: whether `operation` with `algorithm` is implemented for this key (see
/// `SecKeyAlgorithm.operation`).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
    switch (algorithm.operation, key.material, operation) {
    case (.ecdsa, .ec, .sign), (.rsaSignature, .rsa, .sign), (.rsaEncryption, .rsa, .decrypt), (.ecdh, .ec, .keyExchange),
         (.ecdsa, .secureEnclave, .sign), (.ecdh, .secureEnclave, .keyExchange):
        return key.isPrivate
    case (.ecdsa, .ec, .verify), (.rsaSignature, .rsa, .verify), (.rsaEncryption, .rsa, .encrypt), (.ecdsa, .secureEnclave, .verify):
        return true
    default:
        return false
    }
}

/// `SecKeyCreateSignature`: ECDSA (DER, X9.62) or RSA (PKCS#1 v1.5 or PSS) of a message hashed with the algorithm's
/// digest, or of a precomputed digest of that size (another length → errSecParam). Unimplemented algorithms →
/// errSecUnimplemented; a public key or another key type → errSecParam. A Secure Enclave key signs in the TPM, after
/// the evaluation its access control asks for (`SecureEnclaveToken.use`).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    guard let operation = algorithm.operation else { fail(errSecUnimplemented, error); return nil }
    guard key.isPrivate, SecKeyIsAlgorithmSupported(key, .sign, algorithm) else { fail(errSecParam, error); return nil }
    let data = dataToSign as Data
    if let enclaveKey = key.secureEnclaveKey, case let .ecdsa(hash, message) = operation {
        guard message || data.count == hash.byteCount else { fail(errSecParam, error); return nil }
        let digest = data.withUnsafeBytes { bytes -> Data? in
            message ? EVPSignature.withDigest(of: bytes, hash: hash) { SecureEnclaveToken.tpmDigest($0) } : SecureEnclaveToken.tpmDigest(bytes)
        }
        guard let digest else { fail(errSecInternalComponent, error); return nil }
        do throws(SecKeyFailure) {
            let raw = try SecureEnclaveToken.use(enclaveKey) { try $0.signature(digest: digest) }
            return NSData(data: try SecureEnclaveToken.der(raw))
        } catch let failure {
            failure.report(error)
            return nil
        }
    }
    let signature: Data? = data.withUnsafeBytes { bytes in
        switch (operation, key.material) {
        case let (.ecdsa(hash, message), .ec(curve, evp, _)):
            if message {
                return EVPSignature.withDigest(of: bytes, hash: hash) { try? curve.signature(evp, digest: $0).der } ?? nil
            }
            guard bytes.count == hash.byteCount else { return nil }
            return try? curve.signature(evp, digest: bytes).der
        case let (.rsaSignature(padding, hash, message), .rsa(rsa, _)):
            return message ? try? rsa.signature(for: bytes, padding: padding, digest: hash)
                : try? rsa.signature(forDigest: bytes, padding: padding, digest: hash)
        default:
            return nil
        }
    }
    guard let signature else { fail(errSecParam, error); return nil }
    return NSData(data: signature)
}

/// `SecKeyVerifySignature`: checks a signature the way `SecKeyCreateSignature` makes it; false with
/// errSecVerifyFailed when it does not match, errSecUnimplemented for an algorithm not implemented here.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool {
    guard let operation = algorithm.operation else { fail(errSecUnimplemented, error); return false }
    guard SecKeyIsAlgorithmSupported(key, .verify, algorithm) else { fail(errSecParam, error); return false }
    // A Secure Enclave key verifies with its public half.
    if key.secureEnclaveKey != nil, let publicKey = key.publicPart {
        return SecKeyVerifySignature(publicKey, algorithm, signedData, signature, error)
    }
    switch operation {
    case let .ecdsa(hash, false), let .rsaSignature(_, hash, false):
        guard (signedData as Data).count == hash.byteCount else { fail(errSecParam, error); return false }
    default:
        break
    }
    let valid = (signedData as Data).withUnsafeBytes { bytes in
        (signature as Data).withUnsafeBytes { sig in
            switch (operation, key.material) {
            case let (.ecdsa(hash, message), .ec(_, evp, _)):
                guard let md = hash.evpMD else { return false }
                if message {
                    return EVPSignature.withDigest(of: bytes, hash: hash) {
                        EVPSignature.verifyDigest(evp, md: md, signature: sig, digest: $0)
                    } ?? false
                }
                return bytes.count == hash.byteCount && EVPSignature.verifyDigest(evp, md: md, signature: sig, digest: bytes)
            case let (.rsaSignature(padding, hash, message), .rsa(rsa, _)):
                return message ? rsa.isValidSignature(sig, for: bytes, padding: padding, digest: hash)
                    : rsa.isValidSignature(sig, forDigest: bytes, padding: padding, digest: hash)
            default:
                return false
            }
        }
    }
    guard valid else { fail(errSecVerifyFailed, error); return false }
    return true
}

/// `SecKeyCopyAttributes`: class, type, size and whether the key can be exported; for a Secure Enclave key also what
/// Apple's token keys give — `kSecAttrTokenID`, `kSecAttrApplicationLabel` (SHA-1 of the public key),
/// `kSecAttrAccessControl`, `kSecAttrIsPermanent` true, and "toid", the token's object (here the TPM blob, which
/// CryptoKit's `SecureEnclave.P256.Signing.PrivateKey(dataRepresentation:)` and `.KeyAgreement` also take, as Apple's).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    var d = key.itemAttributes
    d[QueryKeys.itemClass] = nil
    if let enclaveKey = key.secureEnclaveKey {
        d[QueryKeys.accessControl] = SecureEnclaveToken.accessControl(of: enclaveKey)
        d["perm"] = true
        d["toid"] = enclaveKey.dataRepresentation
    }
    return SecurityBridge.object(d) as? NSDictionary
}
#endif
