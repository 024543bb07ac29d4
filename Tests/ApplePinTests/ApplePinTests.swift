import Foundation
import Security
import Testing
#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import LocalAuthentication
#endif
#if canImport(CommonCrypto)
import CommonCrypto
#endif
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
#endif
#if canImport(DeviceCheck)
import DeviceCheck
#endif

// The pin files (SecurityPins.swift, LocalAuthenticationPins.swift, CryptoKitPins.swift, CommonCryptoPins.swift,
// AuthenticationServicesPins.swift, SecureEnclavePins.swift, DeviceCheckPins.swift) are checked by compiling: against
// Apple's SDK on a Mac, against the Linux modules in `make test`. This suite runs the pins that only read constants and
// checks the raw values Apple's headers and sources give the constants and enums the Linux modules re-declare (SecKey.h
// and SecKeyAdaptors.m, SecTrust.h, LAPublicDefines.h, CommonDigest.h, CommonHMAC.h, CommonKeyDerivation.h,
// CommonCryptoError.h, ASAuthorizationError.h, ASAuthorizationAppleIDProvider.h, DCError.h), which a signature cannot
// show.

func pinType<T>(_: T.Type) {}
func pinHashable<T: Hashable>(_: T.Type) {}
func pinEquatable<T: Equatable>(_: T.Type) {}
func pinOptionSet<T: OptionSet>(_: T.Type) {}
func pinRawRepresentable<T: RawRepresentable>(_: T.Type) {}
func pinContiguousBytes<T: ContiguousBytes>(_: T.Type) {}
func pinError<T: Error>(_: T.Type) {}
func pinSendable<T: Sendable>(_: T.Type) {}

@Suite struct ApplePinTests {
    @Test func securityPinsCompileAndReadTheirConstants() {
        SecurityPins.types()
        SecurityPins.coreFoundation()
        SecurityPins.itemFunctions()
        SecurityPins.accessControl()
        SecurityPins.keys()
        SecurityPins.certificatesAndTrust()
        SecurityPins.constants()
        SecurityPins.resultCodes()
        SecurityPins.macOSConstants()
    }

    @Test func securityEnumsHaveApplesRawValues() {
        #expect([SecKeyOperationType.sign, .verify, .encrypt, .decrypt, .keyExchange].map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect([SecTrustResultType.invalid, .proceed, .deny, .unspecified, .recoverableTrustFailure, .fatalTrustFailure,
                  .otherError].map(\.rawValue) == [0, 1, 3, 4, 5, 6, 7])
        let flags: [SecAccessControlCreateFlags] = [.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .or,
                                                    .and, .privateKeyUsage, .applicationPassword]
        #expect(flags.map(\.rawValue) == [1, 2, 8, 16, 1 << 14, 1 << 15, 1 << 30, 1 << 31])
    }

    /// Apple's strings (Security's SecKeyAdaptors.m): the keys of a key's algorithm and parameter dictionaries.
    @Test func securityKeyConstantsHaveApplesStrings() {
        let algorithms: [(SecKeyAlgorithm, String)] = [
            (.rsaSignatureRaw, "algid:sign:RSA:raw"),
            (.rsaSignatureDigestPKCS1v15Raw, "algid:sign:RSA:digest-PKCS1v15"),
            (.rsaSignatureDigestPKCS1v15SHA1, "algid:sign:RSA:digest-PKCS1v15:SHA1"),
            (.rsaSignatureDigestPKCS1v15SHA224, "algid:sign:RSA:digest-PKCS1v15:SHA224"),
            (.rsaSignatureDigestPKCS1v15SHA256, "algid:sign:RSA:digest-PKCS1v15:SHA256"),
            (.rsaSignatureDigestPKCS1v15SHA384, "algid:sign:RSA:digest-PKCS1v15:SHA384"),
            (.rsaSignatureDigestPKCS1v15SHA512, "algid:sign:RSA:digest-PKCS1v15:SHA512"),
            (.rsaSignatureMessagePKCS1v15SHA1, "algid:sign:RSA:message-PKCS1v15:SHA1"),
            (.rsaSignatureMessagePKCS1v15SHA224, "algid:sign:RSA:message-PKCS1v15:SHA224"),
            (.rsaSignatureMessagePKCS1v15SHA256, "algid:sign:RSA:message-PKCS1v15:SHA256"),
            (.rsaSignatureMessagePKCS1v15SHA384, "algid:sign:RSA:message-PKCS1v15:SHA384"),
            (.rsaSignatureMessagePKCS1v15SHA512, "algid:sign:RSA:message-PKCS1v15:SHA512"),
            (.rsaSignatureDigestPSSSHA1, "algid:sign:RSA:digest-PSS:SHA1:SHA1:20"),
            (.rsaSignatureDigestPSSSHA224, "algid:sign:RSA:digest-PSS:SHA224:SHA224:24"),
            (.rsaSignatureDigestPSSSHA256, "algid:sign:RSA:digest-PSS:SHA256:SHA256:32"),
            (.rsaSignatureDigestPSSSHA384, "algid:sign:RSA:digest-PSS:SHA384:SHA384:48"),
            (.rsaSignatureDigestPSSSHA512, "algid:sign:RSA:digest-PSS:SHA512:SHA512:64"),
            (.rsaSignatureMessagePSSSHA1, "algid:sign:RSA:message-PSS:SHA1:SHA1:20"),
            (.rsaSignatureMessagePSSSHA224, "algid:sign:RSA:message-PSS:SHA224:SHA224:24"),
            (.rsaSignatureMessagePSSSHA256, "algid:sign:RSA:message-PSS:SHA256:SHA256:32"),
            (.rsaSignatureMessagePSSSHA384, "algid:sign:RSA:message-PSS:SHA384:SHA384:48"),
            (.rsaSignatureMessagePSSSHA512, "algid:sign:RSA:message-PSS:SHA512:SHA512:64"),
            (.ecdsaSignatureDigestX962, "algid:sign:ECDSA:digest-X962"),
            (.ecdsaSignatureDigestX962SHA1, "algid:sign:ECDSA:digest-X962:SHA1"),
            (.ecdsaSignatureDigestX962SHA224, "algid:sign:ECDSA:digest-X962:SHA224"),
            (.ecdsaSignatureDigestX962SHA256, "algid:sign:ECDSA:digest-X962:SHA256"),
            (.ecdsaSignatureDigestX962SHA384, "algid:sign:ECDSA:digest-X962:SHA384"),
            (.ecdsaSignatureDigestX962SHA512, "algid:sign:ECDSA:digest-X962:SHA512"),
            (.ecdsaSignatureMessageX962SHA1, "algid:sign:ECDSA:message-X962:SHA1"),
            (.ecdsaSignatureMessageX962SHA224, "algid:sign:ECDSA:message-X962:SHA224"),
            (.ecdsaSignatureMessageX962SHA256, "algid:sign:ECDSA:message-X962:SHA256"),
            (.ecdsaSignatureMessageX962SHA384, "algid:sign:ECDSA:message-X962:SHA384"),
            (.ecdsaSignatureMessageX962SHA512, "algid:sign:ECDSA:message-X962:SHA512"),
            (.rsaEncryptionRaw, "algid:encrypt:RSA:raw"),
            (.rsaEncryptionPKCS1, "algid:encrypt:RSA:PKCS1"),
            (.rsaEncryptionOAEPSHA1, "algid:encrypt:RSA:OAEP:SHA1"),
            (.rsaEncryptionOAEPSHA224, "algid:encrypt:RSA:OAEP:SHA224"),
            (.rsaEncryptionOAEPSHA256, "algid:encrypt:RSA:OAEP:SHA256"),
            (.rsaEncryptionOAEPSHA384, "algid:encrypt:RSA:OAEP:SHA384"),
            (.rsaEncryptionOAEPSHA512, "algid:encrypt:RSA:OAEP:SHA512"),
            (.eciesEncryptionStandardX963SHA256AESGCM, "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"),
            (.eciesEncryptionCofactorX963SHA256AESGCM, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"),
            (.eciesEncryptionStandardVariableIVX963SHA256AESGCM, "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"),
            (.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"),
            (.ecdhKeyExchangeStandard, "algid:keyexchange:ECDH"),
            (.ecdhKeyExchangeStandardX963SHA1, "algid:keyexchange:ECDH:KDFX963:SHA1"),
            (.ecdhKeyExchangeStandardX963SHA256, "algid:keyexchange:ECDH:KDFX963:SHA256"),
            (.ecdhKeyExchangeStandardX963SHA384, "algid:keyexchange:ECDH:KDFX963:SHA384"),
            (.ecdhKeyExchangeStandardX963SHA512, "algid:keyexchange:ECDH:KDFX963:SHA512"),
            (.ecdhKeyExchangeCofactor, "algid:keyexchange:ECDHC"),
        ]
        for (algorithm, string) in algorithms {
            #expect(algorithm.rawValue as String == string)
        }
        #expect(SecKeyKeyExchangeParameter.requestedSize.rawValue as String == "requestedSize")
        #expect(SecKeyKeyExchangeParameter.sharedInfo.rawValue as String == "sharedInfo")
    }

    #if canImport(DeviceCheck)
    /// DCError.h: the codes in declaration order from 0, and the domain's string.
    @Test func deviceCheckPinsCompileAndErrorsHaveApplesValues() {
        DeviceCheckPins.errors()
        let codes: [DCError.Code] = [.unknownSystemFailure, .featureUnsupported, .invalidInput, .invalidKey, .serverUnavailable]
        #expect(codes.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(DCErrorDomain == "com.apple.devicecheck.error" && DCError.errorDomain == DCErrorDomain)
        #expect((DCError(.invalidKey) as NSError).domain == DCErrorDomain && (DCError(.invalidKey) as NSError).code == 3)
    }
    #endif

    #if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
    @Test func localAuthenticationPinsCompileAndReadTheirConstants() {
        LocalAuthenticationPins.context()
        LocalAuthenticationPins.policiesAndTypes()
        LocalAuthenticationPins.errors()
        LocalAuthenticationPins.constants()
    }

    @Test func localAuthenticationEnumsHaveApplesRawValues() {
        #expect([LAPolicy.deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthentication].map(\.rawValue) == [1, 2])
        #expect([LABiometryType.none, .touchID, .faceID, .opticID].map(\.rawValue) == [0, 1, 2, 4])
        #expect([LACredentialType.applicationPassword, .smartCardPIN].map(\.rawValue) == [0, -3])
        let codes: [LAError.Code] = [.authenticationFailed, .userCancel, .userFallback, .systemCancel, .passcodeNotSet,
                                     .biometryNotAvailable, .biometryNotEnrolled, .biometryLockout, .appCancel,
                                     .invalidContext, .notInteractive]
        #expect(codes.map(\.rawValue) == [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -1004])
        #expect(kLAErrorDomain == LAErrorDomain && LAError.errorDomain == LAErrorDomain)
        #expect(LATouchIDAuthenticationMaximumAllowableReuseDuration == 300)
    }

    @Test func localAuthenticationDomainStatePinsCompile() {
        LocalAuthenticationPins.domainState()
    }
    #endif

    #if canImport(CommonCrypto)
    @Test func commonCryptoPinsCompileAndHaveApplesValues() {
        CommonCryptoPins.digests()
        CommonCryptoPins.hmac()
        CommonCryptoPins.keyDerivation()
        CommonCryptoPins.status()
        let lengths = [CC_MD5_DIGEST_LENGTH, CC_SHA1_DIGEST_LENGTH, CC_SHA256_DIGEST_LENGTH, CC_SHA384_DIGEST_LENGTH,
                       CC_SHA512_DIGEST_LENGTH]
        #expect(lengths == [16, 20, 32, 48, 64])
        let hmacs = [kCCHmacAlgSHA1, kCCHmacAlgMD5, kCCHmacAlgSHA256, kCCHmacAlgSHA384, kCCHmacAlgSHA512, kCCHmacAlgSHA224]
        #expect(hmacs == [0, 1, 2, 3, 4, 5])
        #expect(kCCPBKDF2 == 2)
        let prfs = [kCCPRFHmacAlgSHA1, kCCPRFHmacAlgSHA224, kCCPRFHmacAlgSHA256, kCCPRFHmacAlgSHA384, kCCPRFHmacAlgSHA512]
        #expect(prfs == [1, 2, 3, 4, 5])
        let statuses = [kCCSuccess, kCCParamError, kCCBufferTooSmall, kCCMemoryFailure, kCCAlignmentError, kCCDecodeError,
                        kCCUnimplemented]
        #expect(statuses == [0, -4300, -4301, -4302, -4303, -4304, -4305])
    }
    #endif

    #if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
    @Test func authenticationServicesPinsCompile() {
        AuthenticationServicesPins.controller()
        AuthenticationServicesPins.errors()
        AuthenticationServicesPins.publicKeyCredentials()
        AuthenticationServicesPins.platform()
        #if !os(visionOS)
        AuthenticationServicesPins.securityKeys()
        #endif
        AuthenticationServicesPins.appleID()
    }

    @Test func authenticationServicesEnumsHaveApplesRawValues() {
        let codes: [ASAuthorizationError.Code] = [.unknown, .canceled, .invalidResponse, .notHandled, .failed, .notInteractive]
        #expect(codes.map(\.rawValue) == [1000, 1001, 1002, 1003, 1004, 1005])
        if #available(macOS 15, iOS 18, visionOS 2, *) {
            #expect(ASAuthorizationError.Code.matchedExcludedCredential.rawValue == 1006)
        }
        if #available(macOS 15.2, iOS 18.2, visionOS 2.2, *) {
            #expect([ASAuthorizationError.Code.credentialImport, .credentialExport].map(\.rawValue) == [1007, 1008])
        }
        if #available(macOS 26, iOS 26, visionOS 26, *) {
            #expect([ASAuthorizationError.Code.preferSignInWithApple, .deviceNotConfiguredForPasskeyCreation].map(\.rawValue)
                    == [1009, 1010])
        }
        #expect(ASAuthorizationErrorDomain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(ASAuthorizationError.errorDomain == ASAuthorizationErrorDomain)
        #expect([ASAuthorizationAppleIDProvider.CredentialState.revoked, .authorized, .notFound, .transferred].map(\.rawValue)
                == [0, 1, 2, 3])
        #expect([ASUserDetectionStatus.unsupported, .unknown, .likelyReal].map(\.rawValue) == [0, 1, 2])
        #expect([ASAuthorizationPublicKeyCredentialAttachment.platform, .crossPlatform].map(\.rawValue) == [0, 1])
        #expect(ASCOSEAlgorithmIdentifier.ES256.rawValue == -7)
        #expect(ASAuthorizationController.RequestOptions.preferImmediatelyAvailableCredentials.rawValue == 1)
    }
    #endif
}
