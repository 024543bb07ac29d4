import Foundation
import Security
import Testing
#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import LocalAuthentication
#endif

// The pin files (SecurityPins.swift, LocalAuthenticationPins.swift, CryptoKitPins.swift) are checked by compiling:
// against Apple's SDK on a Mac, against the Linux modules in `make test`. This suite runs the pins that only read
// constants and checks the raw values Apple's headers give the enums the Linux modules re-declare (SecKey.h,
// SecTrust.h, LAPublicDefines.h), which a signature cannot show.

func pinType<T>(_: T.Type) {}
func pinHashable<T: Hashable>(_: T.Type) {}
func pinEquatable<T: Equatable>(_: T.Type) {}
func pinOptionSet<T: OptionSet>(_: T.Type) {}
func pinRawRepresentable<T: RawRepresentable>(_: T.Type) {}
func pinContiguousBytes<T: ContiguousBytes>(_: T.Type) {}
func pinError<T: Error>(_: T.Type) {}

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
    #endif
}
