import Foundation
import Security

// Apple's documented signatures of every Security (and Core Foundation) symbol the package calls or the Linux
// `Security` module provides, pinned as typed bindings. This file compiles unchanged against Apple's SDK and,
// in `make test`, against the Linux module: a binding that stops compiling is a signature that no longer matches
// Apple's (developer.apple.com/documentation/security, SecItem.h, SecKey.h, SecTrust.h, SecBase.h, CFError.h).
//
// - Functions: `let _: (parameter types) -> result = Function`. Optional parameters written `T!` by the SDK are
//   `T?` in a function type.
// - Constants: `let _: Type = constant`. `let _: CFBoolean = kCFBooleanTrue` also pins that the SDK's value is
//   implicitly unwrapped (an Optional would not convert).
// - Members: `Type.member`, `Type.init(labels:)`, `\Type.property` (a `ReferenceWritableKeyPath` pins a setter).
// - Closure parameters and bridging are pinned by call sites inside closures that are never run (`let _ = { }`):
//   they type-check the way app code is written without touching a keychain.
// - API of one platform sits under `#if os(macOS) || os(Linux)`; API newer than the package's floor under
//   `if #available`; deprecated API in `@available(*, deprecated)` functions, so pinning it warns nowhere.
// scripts/check-pins.py fails when the Linux module declares public API that no pin here names.

/// Pins of the Security framework; `ApplePinTests` runs the functions that only read constants.
enum SecurityPins {
    static func types() {
        pinHashable(SecKey.self)
        pinHashable(SecAccessControl.self)
        pinHashable(SecCertificate.self)
        pinHashable(SecPolicy.self)
        pinHashable(SecTrust.self)
        pinRawRepresentable(SecTrustResultType.self)
        pinHashable(SecKeyAlgorithm.self)
        pinRawRepresentable(SecKeyAlgorithm.self)
        pinRawRepresentable(SecKeyOperationType.self)
        pinOptionSet(SecAccessControlCreateFlags.self)
        let _: SecRandomRef.Type = OpaquePointer.self
        let _: SecTrustWithErrorCallback = { (trust: SecTrust, trusted: Bool, error: CFError?) in
            _ = (trust, trusted, error)
        }
        // Apple's callback type is not `@Sendable`: a plain closure value converts to it.
        let plainCallback: (SecTrust, Bool, CFError?) -> Void = { _, _, _ in }
        let _: SecTrustWithErrorCallback = plainCallback
    }

    static func coreFoundation() {
        pinType(CFTypeRef.self)
        pinType(CFString.self)
        pinType(CFDictionary.self)
        pinType(CFMutableDictionary.self)
        pinType(CFArray.self)
        pinType(CFData.self)
        pinType(CFMutableData.self)
        pinType(CFNumber.self)
        pinType(CFBoolean.self)
        pinType(CFDate.self)
        pinType(CFError.self)
        pinType(CFAllocator.self)
        let _: CFIndex.Type = Int.self
        let _: CFTypeID.Type = UInt.self
        let _: CFOptionFlags.Type = UInt.self
        let _: OSStatus.Type = Int32.self
        let _: CFErrorDomain.Type = CFString.self
        let _: CFAllocator = kCFAllocatorDefault
        let _: CFAllocator = kCFAllocatorSystemDefault
        let _: CFBoolean = kCFBooleanTrue
        let _: CFBoolean = kCFBooleanFalse
        let _: CFString = kCFBundleIdentifierKey  // CFBundle.h: `const CFStringRef kCFBundleIdentifierKey` (CFString! in Swift)
        let _: OSStatus = noErr
        let _: (CFTypeRef?) -> CFTypeID = CFGetTypeID
        let _: () -> CFTypeID = CFDataGetTypeID
        let _: () -> CFTypeID = CFDictionaryGetTypeID
        let _: () -> CFTypeID = CFArrayGetTypeID
        let _: () -> CFTypeID = CFStringGetTypeID
        let _: () -> CFTypeID = CFNumberGetTypeID
        let _: () -> CFTypeID = CFBooleanGetTypeID
        let _: () -> CFTypeID = CFDateGetTypeID
        let _: () -> CFTypeID = CFErrorGetTypeID
        let _: (CFError?) -> CFString? = CFErrorCopyDescription
        let _: (CFError?) -> CFIndex = CFErrorGetCode
        let _: (CFError?) -> CFErrorDomain? = CFErrorGetDomain
        let _: (CFError?) -> CFDictionary? = CFErrorCopyUserInfo
        let _: (CFError?) -> CFString? = CFErrorCopyFailureReason
        let _: (CFError?) -> CFString? = CFErrorCopyRecoverySuggestion
        // `NSError()` is NSObject's initializer on Apple platforms (a function of `Security` on Linux).
        let _: NSError = NSError()
        // Bridging, as keychain code writes it.
        let _ = {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true]
            let dictionary: CFDictionary = query as CFDictionary
            let key: String = kSecAttrAccount as String
            let string: CFString = "acct" as CFString
            let data: CFData = Data([1]) as CFData
            let typeRef: CFTypeRef = string
            let back: Data? = data as Data
            _ = (dictionary, key, typeRef, back)
        }
    }

    static func itemFunctions() {
        let _: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemAdd
        let _: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemCopyMatching
        let _: (CFDictionary, CFDictionary) -> OSStatus = SecItemUpdate
        let _: (CFDictionary) -> OSStatus = SecItemDelete
        let _: (OSStatus, UnsafeMutableRawPointer?) -> CFString? = SecCopyErrorMessageString
        let _: (SecRandomRef?, Int, UnsafeMutableRawPointer) -> Int32 = SecRandomCopyBytes
        let _: SecRandomRef = kSecRandomDefault
        let _ = {
            var result: CFTypeRef?
            let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword] as CFDictionary, &result)
            var bytes = [UInt8](repeating: 0, count: 16)
            let random = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
            _ = (status == errSecSuccess, result as? Data, random, bytes)
        }
    }

    static func accessControl() {
        let _: (CFAllocator?, CFTypeRef, SecAccessControlCreateFlags, UnsafeMutablePointer<Unmanaged<CFError>?>?)
            -> SecAccessControl? = SecAccessControlCreateWithFlags
        let _: () -> CFTypeID = SecAccessControlGetTypeID
        let _: (CFOptionFlags) -> SecAccessControlCreateFlags = SecAccessControlCreateFlags.init(rawValue:)
        let _: KeyPath<SecAccessControlCreateFlags, CFOptionFlags> = \SecAccessControlCreateFlags.rawValue
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.userPresence
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.biometryAny
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.biometryCurrentSet
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.devicePasscode
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.or
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.and
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.privateKeyUsage
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.applicationPassword
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.companion
        }
        let _ = {
            var error: Unmanaged<CFError>?
            let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                         [.biometryAny, .or, .devicePasscode], &error)
            _ = (access, error?.takeRetainedValue())
        }
    }

    static func keys() {
        let _: () -> CFTypeID = SecKeyGetTypeID
        let _: (CFDictionary, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? = SecKeyCreateRandomKey
        let _: (SecKey) -> SecKey? = SecKeyCopyPublicKey
        let _: (SecKey, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? = SecKeyCopyExternalRepresentation
        let _: (CFData, CFDictionary, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? = SecKeyCreateWithData
        let _: (SecKey, SecKeyOperationType, SecKeyAlgorithm) -> Bool = SecKeyIsAlgorithmSupported
        let _: (SecKey, SecKeyAlgorithm, CFData, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? =
            SecKeyCreateSignature
        let _: (SecKey, SecKeyAlgorithm, CFData, CFData, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool =
            SecKeyVerifySignature
        let _: (SecKey) -> CFDictionary? = SecKeyCopyAttributes
        let _: (SecKey) -> Int = SecKeyGetBlockSize
        let _: (SecKey, SecKeyAlgorithm, CFData, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? =
            SecKeyCreateEncryptedData
        let _: (SecKey, SecKeyAlgorithm, CFData, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? =
            SecKeyCreateDecryptedData
        let _: (SecKey, SecKeyAlgorithm, SecKey, CFDictionary, UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? =
            SecKeyCopyKeyExchangeResult
        let _: (CFString) -> SecKeyAlgorithm = SecKeyAlgorithm.init(rawValue:)
        let _: KeyPath<SecKeyAlgorithm, CFString> = \SecKeyAlgorithm.rawValue
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureRaw
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15Raw
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPSSSHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPSSSHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPSSSHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPSSSHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureDigestPSSSHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePSSSHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePSSSHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePSSSHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePSSSHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaSignatureMessagePSSSHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureDigestX962
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionRaw
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionPKCS1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA224
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.eciesEncryptionStandardX963SHA256AESGCM
        let _: SecKeyAlgorithm = SecKeyAlgorithm.eciesEncryptionCofactorX963SHA256AESGCM
        let _: SecKeyAlgorithm = SecKeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA256AESGCM
        let _: SecKeyAlgorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdhKeyExchangeStandard
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA1
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA256
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA384
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA512
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdhKeyExchangeCofactor
        pinHashable(SecKeyKeyExchangeParameter.self)
        pinRawRepresentable(SecKeyKeyExchangeParameter.self)
        let _: (CFString) -> SecKeyKeyExchangeParameter = SecKeyKeyExchangeParameter.init(rawValue:)
        let _: KeyPath<SecKeyKeyExchangeParameter, CFString> = \SecKeyKeyExchangeParameter.rawValue
        let _: SecKeyKeyExchangeParameter = SecKeyKeyExchangeParameter.requestedSize
        let _: SecKeyKeyExchangeParameter = SecKeyKeyExchangeParameter.sharedInfo
        let _: (CFIndex) -> SecKeyOperationType? = SecKeyOperationType.init(rawValue:)
        let _: SecKeyOperationType = SecKeyOperationType.sign
        let _: SecKeyOperationType = SecKeyOperationType.verify
        let _: SecKeyOperationType = SecKeyOperationType.encrypt
        let _: SecKeyOperationType = SecKeyOperationType.decrypt
        let _: SecKeyOperationType = SecKeyOperationType.keyExchange
        let _ = {
            var error: Unmanaged<CFError>?
            let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                             kSecAttrKeySizeInBits as String: 256]
            guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else { return }
            let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data() as CFData, &error)
            let failure: (any Error)? = error?.takeRetainedValue()
            _ = (signature as Data?, failure)
        }
        let _ = { (privateKey: SecKey, publicKey: SecKey) in
            // Apple's Swift names the C constants kSecKeyKeyExchangeParameter… as SecKeyKeyExchangeParameter members.
            let parameters: [String: Any] = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 32,
                                             SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: Data()]
            var error: Unmanaged<CFError>?
            let shared = SecKeyCopyKeyExchangeResult(privateKey, .ecdhKeyExchangeStandardX963SHA256, publicKey,
                                                     parameters as CFDictionary, &error)
            _ = (shared as Data?, error?.takeRetainedValue(), SecKeyGetBlockSize(privateKey))
        }
    }

    static func certificatesAndTrust() {
        let _: () -> CFTypeID = SecCertificateGetTypeID
        let _: () -> CFTypeID = SecPolicyGetTypeID
        let _: () -> CFTypeID = SecTrustGetTypeID
        let _: (CFAllocator?, CFData) -> SecCertificate? = SecCertificateCreateWithData
        let _: (SecCertificate) -> CFData = SecCertificateCopyData
        let _: (SecCertificate) -> SecKey? = SecCertificateCopyKey
        let _: (SecCertificate) -> CFString? = SecCertificateCopySubjectSummary
        let _: (SecCertificate, UnsafeMutablePointer<CFString?>) -> OSStatus = SecCertificateCopyCommonName
        let _: (Bool, CFString?) -> SecPolicy = SecPolicyCreateSSL
        let _: () -> SecPolicy = SecPolicyCreateBasicX509
        let _: (CFTypeRef, CFTypeRef?, UnsafeMutablePointer<SecTrust?>) -> OSStatus = SecTrustCreateWithCertificates
        let _: (SecTrust, CFTypeRef) -> OSStatus = SecTrustSetPolicies
        let _: (SecTrust, UnsafeMutablePointer<CFArray?>) -> OSStatus = SecTrustCopyPolicies
        let _: (SecTrust, CFArray?) -> OSStatus = SecTrustSetAnchorCertificates
        let _: (SecTrust, Bool) -> OSStatus = SecTrustSetAnchorCertificatesOnly
        let _: (SecTrust, CFDate) -> OSStatus = SecTrustSetVerifyDate
        let _: (SecTrust, Bool) -> OSStatus = SecTrustSetNetworkFetchAllowed
        let _: (SecTrust, UnsafeMutablePointer<CFError?>?) -> Bool = SecTrustEvaluateWithError
        let _: (SecTrust, DispatchQueue, @escaping SecTrustWithErrorCallback) -> OSStatus = SecTrustEvaluateAsyncWithError
        let _: (SecTrust, UnsafeMutablePointer<SecTrustResultType>) -> OSStatus = SecTrustGetTrustResult
        let _: (SecTrust) -> CFArray? = SecTrustCopyCertificateChain
        let _: (SecTrust) -> CFIndex = SecTrustGetCertificateCount
        let _: (SecTrust) -> SecKey? = SecTrustCopyKey
        let _: (UInt32) -> SecTrustResultType? = SecTrustResultType.init(rawValue:)
        let _: SecTrustResultType = SecTrustResultType.invalid
        let _: SecTrustResultType = SecTrustResultType.proceed
        let _: SecTrustResultType = SecTrustResultType.deny
        let _: SecTrustResultType = SecTrustResultType.unspecified
        let _: SecTrustResultType = SecTrustResultType.recoverableTrustFailure
        let _: SecTrustResultType = SecTrustResultType.fatalTrustFailure
        let _: SecTrustResultType = SecTrustResultType.otherError
        let _ = { (certificate: SecCertificate) in
            var trust: SecTrust?
            let status = SecTrustCreateWithCertificates(certificate, SecPolicyCreateSSL(true, "example.com" as CFString), &trust)
            guard status == errSecSuccess, let trust else { return }
            var error: CFError?
            let trusted = SecTrustEvaluateWithError(trust, &error)
            var name: CFString?
            _ = SecCertificateCopyCommonName(certificate, &name)
            _ = SecTrustEvaluateAsyncWithError(trust, DispatchQueue.global()) { trust, trusted, error in
                _ = (trust, trusted, error)
            }
            _ = (trusted, error, name)
        }
    }

    static func constants() {
        let _: CFString = kSecClass
        let _: CFString = kSecClassGenericPassword
        let _: CFString = kSecClassInternetPassword
        let _: CFString = kSecClassCertificate
        let _: CFString = kSecClassKey
        let _: CFString = kSecClassIdentity
        let _: CFString = kSecAttrAccessible
        let _: CFString = kSecAttrAccessControl
        let _: CFString = kSecAttrAccessGroup
        let _: CFString = kSecAttrSynchronizable
        let _: CFString = kSecAttrSynchronizableAny
        let _: CFString = kSecAttrCreationDate
        let _: CFString = kSecAttrModificationDate
        let _: CFString = kSecAttrDescription
        let _: CFString = kSecAttrComment
        let _: CFString = kSecAttrCreator
        let _: CFString = kSecAttrType
        let _: CFString = kSecAttrLabel
        let _: CFString = kSecAttrIsInvisible
        let _: CFString = kSecAttrIsNegative
        let _: CFString = kSecAttrAccount
        let _: CFString = kSecAttrService
        let _: CFString = kSecAttrGeneric
        let _: CFString = kSecAttrSyncViewHint
        let _: CFString = kSecAttrPersistentReference
        let _: CFString = kSecAttrAccessGroupToken
        let _: CFString = kSecAttrSecurityDomain
        let _: CFString = kSecAttrServer
        let _: CFString = kSecAttrProtocol
        let _: CFString = kSecAttrAuthenticationType
        let _: CFString = kSecAttrPort
        let _: CFString = kSecAttrPath
        let _: CFString = kSecAttrSubject
        let _: CFString = kSecAttrIssuer
        let _: CFString = kSecAttrSerialNumber
        let _: CFString = kSecAttrSubjectKeyID
        let _: CFString = kSecAttrPublicKeyHash
        let _: CFString = kSecAttrCertificateType
        let _: CFString = kSecAttrCertificateEncoding
        let _: CFString = kSecAttrKeyClass
        let _: CFString = kSecAttrApplicationLabel
        let _: CFString = kSecAttrIsPermanent
        let _: CFString = kSecAttrIsSensitive
        let _: CFString = kSecAttrIsExtractable
        let _: CFString = kSecAttrApplicationTag
        let _: CFString = kSecAttrKeyType
        let _: CFString = kSecAttrKeySizeInBits
        let _: CFString = kSecAttrEffectiveKeySize
        let _: CFString = kSecAttrCanEncrypt
        let _: CFString = kSecAttrCanDecrypt
        let _: CFString = kSecAttrCanDerive
        let _: CFString = kSecAttrCanSign
        let _: CFString = kSecAttrCanVerify
        let _: CFString = kSecAttrCanWrap
        let _: CFString = kSecAttrCanUnwrap
        let _: CFString = kSecAttrTokenID
        let _: CFString = kSecAttrTokenIDSecureEnclave
        let _: CFString = kSecPrivateKeyAttrs
        let _: CFString = kSecPublicKeyAttrs
        let _: CFString = kSecAttrKeyClassPublic
        let _: CFString = kSecAttrKeyClassPrivate
        let _: CFString = kSecAttrKeyClassSymmetric
        let _: CFString = kSecAttrKeyTypeRSA
        let _: CFString = kSecAttrKeyTypeECSECPrimeRandom
        let _: CFString = kSecAttrAccessibleWhenUnlocked
        let _: CFString = kSecAttrAccessibleAfterFirstUnlock
        let _: CFString = kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        let _: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        let _: CFString = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let _: CFString = kSecAttrProtocolFTP
        let _: CFString = kSecAttrProtocolFTPAccount
        let _: CFString = kSecAttrProtocolHTTP
        let _: CFString = kSecAttrProtocolIRC
        let _: CFString = kSecAttrProtocolNNTP
        let _: CFString = kSecAttrProtocolPOP3
        let _: CFString = kSecAttrProtocolSMTP
        let _: CFString = kSecAttrProtocolSOCKS
        let _: CFString = kSecAttrProtocolIMAP
        let _: CFString = kSecAttrProtocolLDAP
        let _: CFString = kSecAttrProtocolAppleTalk
        let _: CFString = kSecAttrProtocolAFP
        let _: CFString = kSecAttrProtocolTelnet
        let _: CFString = kSecAttrProtocolSSH
        let _: CFString = kSecAttrProtocolFTPS
        let _: CFString = kSecAttrProtocolHTTPS
        let _: CFString = kSecAttrProtocolHTTPProxy
        let _: CFString = kSecAttrProtocolHTTPSProxy
        let _: CFString = kSecAttrProtocolFTPProxy
        let _: CFString = kSecAttrProtocolSMB
        let _: CFString = kSecAttrProtocolRTSP
        let _: CFString = kSecAttrProtocolRTSPProxy
        let _: CFString = kSecAttrProtocolDAAP
        let _: CFString = kSecAttrProtocolEPPC
        let _: CFString = kSecAttrProtocolIPP
        let _: CFString = kSecAttrProtocolNNTPS
        let _: CFString = kSecAttrProtocolLDAPS
        let _: CFString = kSecAttrProtocolTelnetS
        let _: CFString = kSecAttrProtocolIMAPS
        let _: CFString = kSecAttrProtocolIRCS
        let _: CFString = kSecAttrProtocolPOP3S
        let _: CFString = kSecAttrAuthenticationTypeNTLM
        let _: CFString = kSecAttrAuthenticationTypeMSN
        let _: CFString = kSecAttrAuthenticationTypeDPA
        let _: CFString = kSecAttrAuthenticationTypeRPA
        let _: CFString = kSecAttrAuthenticationTypeHTTPBasic
        let _: CFString = kSecAttrAuthenticationTypeHTTPDigest
        let _: CFString = kSecAttrAuthenticationTypeHTMLForm
        let _: CFString = kSecAttrAuthenticationTypeDefault
        let _: CFString = kSecMatchPolicy
        let _: CFString = kSecMatchItemList
        let _: CFString = kSecMatchSearchList
        let _: CFString = kSecMatchIssuers
        let _: CFString = kSecMatchEmailAddressIfPresent
        let _: CFString = kSecMatchSubjectContains
        let _: CFString = kSecMatchCaseInsensitive
        let _: CFString = kSecMatchTrustedOnly
        let _: CFString = kSecMatchValidOnDate
        let _: CFString = kSecMatchLimit
        let _: CFString = kSecMatchLimitOne
        let _: CFString = kSecMatchLimitAll
        let _: CFString = kSecReturnData
        let _: CFString = kSecReturnAttributes
        let _: CFString = kSecReturnRef
        let _: CFString = kSecReturnPersistentRef
        let _: CFString = kSecValueData
        let _: CFString = kSecValueRef
        let _: CFString = kSecValuePersistentRef
        let _: CFString = kSecUseAuthenticationUI
        let _: CFString = kSecUseAuthenticationContext
        let _: CFString = kSecUseDataProtectionKeychain
        let _: CFString = kSecUseAuthenticationUISkip
    }

    static func resultCodes() {
        let _: OSStatus = errSecSuccess
        let _: OSStatus = errSecUnimplemented
        let _: OSStatus = errSecDiskFull
        let _: OSStatus = errSecIO
        let _: OSStatus = errSecOpWr
        let _: OSStatus = errSecParam
        let _: OSStatus = errSecWrPerm
        let _: OSStatus = errSecAllocate
        let _: OSStatus = errSecUserCanceled
        let _: OSStatus = errSecBadReq
        let _: OSStatus = errSecInternalComponent
        let _: OSStatus = errSecCoreFoundationUnknown
        let _: OSStatus = errSecMissingEntitlement
        let _: OSStatus = errSecRestrictedAPI
        let _: OSStatus = errSecNotAvailable
        let _: OSStatus = errSecReadOnly
        let _: OSStatus = errSecAuthFailed
        let _: OSStatus = errSecNoSuchKeychain
        let _: OSStatus = errSecInvalidKeychain
        let _: OSStatus = errSecDuplicateKeychain
        let _: OSStatus = errSecDuplicateCallback
        let _: OSStatus = errSecInvalidCallback
        let _: OSStatus = errSecDuplicateItem
        let _: OSStatus = errSecItemNotFound
        let _: OSStatus = errSecBufferTooSmall
        let _: OSStatus = errSecDataTooLarge
        let _: OSStatus = errSecNoSuchAttr
        let _: OSStatus = errSecInvalidItemRef
        let _: OSStatus = errSecInvalidSearchRef
        let _: OSStatus = errSecNoSuchClass
        let _: OSStatus = errSecNoDefaultKeychain
        let _: OSStatus = errSecInteractionNotAllowed
        let _: OSStatus = errSecReadOnlyAttr
        let _: OSStatus = errSecWrongSecVersion
        let _: OSStatus = errSecKeySizeNotAllowed
        let _: OSStatus = errSecNoStorageModule
        let _: OSStatus = errSecInteractionRequired
        let _: OSStatus = errSecDataNotAvailable
        let _: OSStatus = errSecDataNotModifiable
        let _: OSStatus = errSecCreateChainFailed
        let _: OSStatus = errSecInDarkWake
        let _: OSStatus = errSecPolicyNotFound
        let _: OSStatus = errSecNoAccessForItem
        let _: OSStatus = errSecUnsupportedFormat
        let _: OSStatus = errSecUnknownFormat
        let _: OSStatus = errSecKeyIsSensitive
        let _: OSStatus = errSecPassphraseRequired
        let _: OSStatus = errSecNotSigner
        let _: OSStatus = errSecDecode
        let _: OSStatus = errSecServiceNotAvailable
        let _: OSStatus = errSecMemoryError
        let _: OSStatus = errSecInvalidData
        let _: OSStatus = errSecInvalidSignature
        let _: OSStatus = errSecInvalidKeyRef
        let _: OSStatus = errSecInvalidAlgorithm
        let _: OSStatus = errSecVerifyFailed
        let _: OSStatus = errSecCertificateExpired
        let _: OSStatus = errSecNotTrusted
        let _: OSStatus = errSecHostNameMismatch
        let _: OSStatus = errSecUnknownCriticalExtensionFlag
        let _: OSStatus = errSecNoBasicConstraintsCA
        let _: OSStatus = errSecInvalidExtendedKeyUsage
        let _: OSStatus = errSecPathLengthConstraintExceeded
        let _: OSStatus = errSecInvalidCertificateRef
        let _: OSStatus = errSecCertificateNotValidYet
        let _: OSStatus = errSecCertificateRevoked
    }

    /// Keys of the macOS keychain only (file-based keychains, legacy key types, certificate-name matching).
    static func macOSConstants() {
        #if os(macOS) || os(Linux)
        let _: CFString = kSecAttrKeyTypeDSA
        let _: CFString = kSecAttrKeyTypeAES
        let _: CFString = kSecAttrKeyTypeDES
        let _: CFString = kSecAttrKeyType3DES
        let _: CFString = kSecAttrKeyTypeRC4
        let _: CFString = kSecAttrKeyTypeRC2
        let _: CFString = kSecAttrKeyTypeCAST
        let _: CFString = kSecMatchSubjectStartsWith
        let _: CFString = kSecMatchSubjectEndsWith
        let _: CFString = kSecMatchSubjectWholeString
        let _: CFString = kSecMatchDiacriticInsensitive
        let _: CFString = kSecMatchWidthInsensitive
        let _: CFString = kSecUseKeychain
        #endif
    }

    /// Deprecated API the Linux module still provides: pinned without warnings inside a deprecated function.
    @available(*, deprecated, message: "pins of deprecated API")
    static func deprecated() {
        let _: CFString = kSecAttrKeyTypeEC
        let _: CFString = kSecAttrAccessibleAlways
        let _: CFString = kSecAttrAccessibleAlwaysThisDeviceOnly
        let _: CFString = kSecUseItemList
        let _: CFString = kSecUseOperationPrompt
        let _: CFString = kSecUseNoAuthenticationUI
        let _: CFString = kSecUseAuthenticationUIAllow
        let _: CFString = kSecUseAuthenticationUIFail
        let _: OSStatus = errSecDskFull
        #if os(macOS) || os(Linux)
        let _: CFString = kSecAttrKeyTypeECDSA
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.watch
        #endif
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.touchIDAny
        let _: SecAccessControlCreateFlags = SecAccessControlCreateFlags.touchIDCurrentSet
        let _: SecTrustResultType = SecTrustResultType.confirm
        // Deprecated at the package's floor (macOS 14, iOS 17, tvOS 17, watchOS 10) for .ecdsaSignatureDigestRFC4754.
        let _: SecKeyAlgorithm = SecKeyAlgorithm.ecdsaSignatureRFC4754
        let _: (SecTrust, UnsafeMutablePointer<SecTrustResultType>) -> OSStatus = SecTrustEvaluate
        let _: (SecTrust, CFIndex) -> SecCertificate? = SecTrustGetCertificateAtIndex
        let _: (SecTrust) -> SecKey? = SecTrustCopyPublicKey
    }
}
