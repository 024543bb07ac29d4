import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("LAError / OSStatus mapping used by AppleAuthenticationContext", .offCooperativePool)
struct LocalAuthenticationMappingTests {
    @Test func everyModelledCodeMapsToItself() {
        for error in AuthenticationError.allCases {
            #expect(AuthenticationError(localAuthenticationCode: error.code) == error)
        }
    }

    @Test func unmodelledCodesAreFolded() {
        for code in [-11, -12, -13, -14] {
            #expect(AuthenticationError(localAuthenticationCode: code) == .biometryNotAvailable)
        }
        #expect(AuthenticationError(localAuthenticationCode: -1000) == .authenticationFailed)
        #expect(AuthenticationError(localAuthenticationCode: 42) == .authenticationFailed)
    }

    @Test func nsErrorsAreMappedByDomain() {
        let lockout = NSError(domain: AuthenticationError.localAuthenticationErrorDomain, code: -8)
        #expect(AuthenticationError(localAuthenticationError: lockout) == .biometryLockout)
        let notInteractive = NSError(domain: "com.apple.LocalAuthentication", code: -1004)
        #expect(AuthenticationError(localAuthenticationError: notInteractive) == .notInteractive)
        let foreign = NSError(domain: NSPOSIXErrorDomain, code: -8)
        #expect(AuthenticationError(localAuthenticationError: foreign) == .authenticationFailed)
        #expect(AuthenticationError(localAuthenticationError: AuthenticationError.appCancel) == .appCancel)
    }

    @Test func keychainStatuses() {
        #expect(AuthenticationError(keychainStatus: -128) == .userCancel)
        #expect(AuthenticationError(keychainStatus: -25293) == .authenticationFailed)
        #expect(AuthenticationError(keychainStatus: -25308) == .notInteractive)
        #expect(AuthenticationError(keychainStatus: -25300) == .systemCancel)
    }

    @Test func biometryTypeRawValuesAreLABiometryTypes() {
        #expect(BiometryType(localAuthenticationRawValue: 0) == BiometryType.none)
        #expect(BiometryType(localAuthenticationRawValue: 1) == .touchID)
        #expect(BiometryType(localAuthenticationRawValue: 2) == .faceID)
        #expect(BiometryType(localAuthenticationRawValue: 4) == .opticID)
        #expect(BiometryType(localAuthenticationRawValue: 3) == BiometryType.none)
    }
}
