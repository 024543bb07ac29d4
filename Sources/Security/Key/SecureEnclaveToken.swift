#if os(Linux)
import CryptoKit
import Foundation
import LatchkeyKeychainCore
import LatchkeyOpenSSL
import LocalAuthentication

/// `kSecAttrTokenIDSecureEnclave` on Linux: `SecKey` private keys made and used in the TPM 2.0 that CryptoKit's
/// `SecureEnclave` uses (`SecureEnclaveKey`, of the kind that both signs and agrees, as Apple's Secure Enclave keys do).
///
/// - Creation (`SecKeyCreateRandomKey`): P-256 only (`kSecAttrKeyTypeECSECPrimeRandom` / `kSecAttrKeyTypeEC`, 256 bits),
///   anything else errSecParam; no TPM → errSecUnimplemented, as CryptoKit's `SecureEnclave` on a simulator — never a
///   software key. The private key is permanent unless `kSecAttrIsPermanent` is false (Apple's default for token keys).
/// - The keychain item (`kSecClassKey`) holds the TPM's blob of the key as its value, `kSecAttrTokenID`, and
///   `kSecAttrApplicationLabel` = SHA-1 of the public key (04 ‖ x ‖ y), as Apple's `SecCTKKey` computes it.
/// - The access control is enforced by the TPM at each use, not by the keychain when the item is read — Apple's
///   `.privateKeyUsage` puts the constraints on the key's sign and key-exchange operations, not on reading the item
///   (SecAccessControl.m). So the item's stored access control keeps its constraints where no store acts on them
///   (`storedAccessControl`), and reads give them back (`returnedAccessControl`).
/// - With constraints but without `.privateKeyUsage`, Apple's access control allows no signing or key exchange (its
///   constraints guard decryption only): such a key is made, and its uses fail with errSecAuthFailed.
enum SecureEnclaveToken {
    /// `kSecAttrTokenIDSecureEnclave`.
    static let identifier = "com.apple.setoken"

    /// Whether a keychain item is a Secure Enclave key.
    static func holds(_ attributes: ItemAttributes) -> Bool {
        attributes.itemClass == .key && attributes.values[.tokenID]?.stringValue == identifier
    }

    /// A new Secure Enclave private key for `SecKeyCreateRandomKey`'s merged private-key parameters: the access control
    /// (`kSecAttrAccessControl`, else `kSecAttrAccessible` or after-first-unlock-this-device-only, without flags),
    /// the context its uses and its creation evaluate with (`kSecUseAuthenticationContext`) and their prompt
    /// (`kSecUseOperationPrompt`).
    static func makeKey(rsa: Bool, bits: Int, parameters: [String: Any]) throws(SecKeyFailure) -> SecKey {
        guard !rsa, bits == 256 else { throw SecKeyFailure(errSecParam) }
        let control: AccessControl
        if let given = parameters[QueryKeys.accessControl] {
            guard let parsed = try? QueryDictionary.accessControl(given) else { throw SecKeyFailure(errSecParam) }
            control = parsed
        } else {
            let level = parameters[QueryKeys.accessible].flatMap(DictionaryValues.string).flatMap(Accessibility.init(rawValue:))
            control = AccessControl(accessibility: level ?? .afterFirstUnlockThisDeviceOnly, flags: [])
        }
        // The TPM enforces the constraints; an application password has no counterpart there yet.
        guard !control.requiresApplicationPassword else { throw SecKeyFailure(errSecUnimplemented) }
        let context = parameters[QueryKeys.useAuthenticationContext] as? LAContext
        do {
            var key = try SecureEnclaveKey(signingAndKeyAgreement: SecAccessControl(control).secureEnclaveAccess, context: context)
            key.operationPrompt = parameters[QueryKeys.useOperationPrompt].flatMap(DictionaryValues.string)
            return try SecKey(.secureEnclave(key), exportable: false)
        } catch let failure as SecKeyFailure {
            throw failure
        } catch {
            throw SecKeyFailure(error)
        }
    }

    /// What a Secure Enclave key's item carries besides the class, type and size: the token, the application label
    /// and the access control (in its stored form).
    static func itemAttributes(of key: SecureEnclaveKey) -> [String: Any] {
        let label = key.x963PublicKey.withUnsafeBytes { OpenSSLDigest.sha1.hash($0) }
        return [AttributeKey.tokenID.rawValue: identifier, AttributeKey.applicationLabel.rawValue: label,
                QueryKeys.accessControl: storedAccessControl(accessControl(of: key))]
    }

    /// The access control a Secure Enclave key was made with.
    static func accessControl(of key: SecureEnclaveKey) -> AccessControl {
        let access = key.access
        return AccessControl(accessibility: Accessibility(rawValue: access.accessibility) ?? .afterFirstUnlockThisDeviceOnly,
                             flags: AccessControlFlags(rawValue: UInt(truncatingIfNeeded: access.flags)))
    }

    // MARK: - The access control kept in the keychain

    /// The flags the keychain's stores act on (a constraint seals the item's value; `.or`/`.and` combine them).
    private static let constraintFlags: AccessControlFlags = [.userPresence, .biometryAny, .biometryCurrentSet,
                                                              .devicePasscode, .companion, .or, .and]

    /// The access control kept with a Secure Enclave key's item: its constraints moved to the upper 32 bits of the
    /// flags, where no store acts on them, so the item reads without a prompt and the TPM alone gates the key.
    static func storedAccessControl(_ control: AccessControl) -> AccessControl {
        let held = control.flags.intersection(constraintFlags).rawValue
        return AccessControl(accessibility: control.accessibility,
                             flags: AccessControlFlags(rawValue: control.flags.subtracting(constraintFlags).rawValue | held << 32))
    }

    /// The access control a read returns for a Secure Enclave key's item: the one it was made with.
    static func returnedAccessControl(_ stored: AccessControl) -> AccessControl {
        let raw = stored.flags.rawValue
        return AccessControl(accessibility: stored.accessibility, flags: AccessControlFlags(rawValue: (raw & 0xffff_ffff) | raw >> 32))
    }

    /// The results of a keychain read with each Secure Enclave key's access control as it was made.
    static func restoringAccessControl(_ results: [QueryResult]) -> [QueryResult] {
        results.map { result in
            guard let attributes = result.attributes, holds(attributes), let stored = attributes.accessControl else { return result }
            var restored = result
            restored.attributes?.accessControl = returnedAccessControl(stored)
            return restored
        }
    }

    // MARK: - Use

    /// Runs a private-key operation of `key` unless its access control forbids private-key use (constraints without
    /// `.privateKeyUsage`); errors as Apple's Secure Enclave keys report them (`SecKeyFailure`).
    static func use<T>(_ key: SecureEnclaveKey, _ body: (SecureEnclaveKey) throws -> T) throws(SecKeyFailure) -> T {
        let access = key.access
        let privateKeyUsage = AccessControlFlags.privateKeyUsage.rawValue
        guard !access.requiresAuthentication || access.flags & UInt64(privateKeyUsage) != 0 else {
            throw SecKeyFailure(errSecAuthFailed)
        }
        do {
            return try body(key)
        } catch {
            throw SecKeyFailure(error)
        }
    }

    /// An ECDSA signature r ‖ s (the TPM's) in DER, as `SecKeyCreateSignature` returns X9.62 signatures.
    static func der(_ raw: Data) throws(SecKeyFailure) -> Data {
        do {
            return try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
        } catch {
            throw SecKeyFailure(errSecInternalComponent)
        }
    }

    /// A digest as the TPM's ECDSA takes it (32 bytes): ECDSA over P-256 uses the leftmost 256 bits of a longer
    /// digest and the integer value of a shorter one (FIPS 186-5 §6.4.1), so a SHA-384/512 digest is cut to its first
    /// 32 bytes and a SHA-1/224 digest is padded with leading zero bytes — the signature is that of the digest given.
    static func tpmDigest(_ digest: UnsafeRawBufferPointer) -> Data {
        digest.count >= 32 ? Data(digest.prefix(32)) : Data(count: 32 - digest.count) + Data(digest)
    }
}

/// A `SecKey…` failure: the `NSError` Apple's functions set — `NSOSStatusErrorDomain` with an OSStatus, or the
/// LocalAuthentication error of a cancelled or failed prompt (`LAErrorDomain`).
struct SecKeyFailure: Error {
    let error: NSError

    init(_ status: OSStatus) { error = SecurityErrors.error(status) }

    init(_ failure: any Error) {
        switch failure {
        case let CryptoKitError.underlyingCoreCryptoError(status): error = SecurityErrors.error(status)
        case let failure as LAError: error = failure as NSError
        case let failure as SecKeyFailure: error = failure.error
        default: error = SecurityErrors.error(errSecInternalComponent)
        }
    }

    /// Sets Apple's `error` out-parameter.
    func report(_ out: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
        out?.pointee = Unmanaged.passRetained(error)
    }
}
#endif
