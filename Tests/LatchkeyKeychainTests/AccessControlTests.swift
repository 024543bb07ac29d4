import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// Access-control flag rules and the mapping of LocalAuthentication errors to keychain statuses.
@Suite(.offCooperativePool) struct AccessControlTests {
    @Test func alternativesAndPolicies() throws {
        let bio = AccessControl(accessibility: .whenUnlocked, flags: [.biometryCurrentSet])
        #expect(try bio.alternatives() == [[.biometryCurrentSet]] && bio.policy == .deviceOwnerAuthenticationWithBiometrics)
        let or = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny, .or, .devicePasscode])
        #expect(try or.alternatives() == [[.biometryAny], [.devicePasscode]] && or.policy == .deviceOwnerAuthentication)
        let and = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny, .and, .devicePasscode])
        #expect(try and.alternatives() == [[.biometryAny, .devicePasscode]])
        let presence = AccessControl(accessibility: .afterFirstUnlock, flags: [.userPresence, .privateKeyUsage])
        #expect(try presence.alternatives() == [[.userPresence]] && presence.policy == .deviceOwnerAuthentication)
        #expect(try AccessControl(accessibility: .whenUnlocked, flags: []).alternatives().isEmpty)
        #expect(!AccessControl(accessibility: .whenUnlocked, flags: [.privateKeyUsage]).requiresAuthentication)
        #expect(status { _ = try AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny, .or, .and, .devicePasscode]).alternatives() } == .param)
        // Apple's creation rules (SecAccessControl.m); a companion constraint is valid but never proven on Linux.
        #expect(status { _ = try AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny, .biometryCurrentSet]).alternatives() } == .param)
        #expect(status { _ = try AccessControl(accessibility: .whenUnlocked, flags: [.userPresence, .devicePasscode]).alternatives() } == .param)
        #expect(status { _ = try AccessControl(accessibility: .whenUnlocked, flags: [.userPresence, .or]).alternatives() } == .param)
        #expect(try AccessControl(accessibility: .whenUnlocked, flags: [.userPresence, .applicationPassword, .privateKeyUsage]).alternatives() == [[.userPresence]])
        #expect(try AccessControl(accessibility: .whenUnlocked, flags: [.companion]).alternatives().isEmpty)
        #expect(try AccessControl(accessibility: .whenUnlocked, flags: [.companion, .or, .devicePasscode]).alternatives() == [[.devicePasscode]])
        #expect(try AccessControl(accessibility: .whenUnlocked, flags: [.companion, .and, .devicePasscode]).alternatives().isEmpty)
    }

    @Test func authenticationErrorsMapToApplesStatuses() {
        let expected: [AuthenticationError: KeychainStatus] = [
            .notInteractive: .interactionNotAllowed, .userCancel: .userCanceled, .appCancel: .userCanceled,
            .systemCancel: .userCanceled, .userFallback: .userCanceled, .authenticationFailed: .authFailed,
            .biometryLockout: .authFailed, .invalidContext: .authFailed, .biometryNotEnrolled: .authFailed,
            .biometryNotAvailable: .authFailed, .passcodeNotSet: .authFailed,
        ]
        for error in AuthenticationError.allCases {
            #expect(AccessGate.map(error, flags: [.biometryAny]).status == expected[error], "\(error)")
        }
    }

    @Test(arguments: StoreKind.allCases) func andNeedsEveryDomain(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let store = t.store
        let both = FakeContext()
        try both.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        both.outcome = .passcode
        try both.evaluateNow(.deviceOwnerAuthentication)
        var item = genp("svc", "and", "both")
        item.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny, .and, .devicePasscode])
        try store.add(item, authenticationContext: both)
        let bioOnly = FakeContext(); try bioOnly.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        #expect(status { _ = try read(store, "svc", "and", context: bioOnly, ui: .fail) } == .interactionNotAllowed)
        #expect(try read(store, "svc", "and", context: both) == "both")
        // `.or` with a passcode-only context opens through the passcode alternative.
        var either = genp("svc", "or", "either")
        either.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryCurrentSet, .or, .devicePasscode])
        try store.add(either, authenticationContext: both)
        let passOnly = FakeContext(); passOnly.outcome = .passcode
        try passOnly.evaluateNow(.deviceOwnerAuthentication)
        #expect(try read(store, "svc", "or", context: passOnly) == "either")
        both.enrollment = Data("new finger".utf8)
        #expect(try read(store, "svc", "or", context: passOnly) == "either")
    }

    @Test func passcodeLevelNeedsAPasscode() {
        let store = MemoryStore(passcodeSet: false)
        #expect(status { try store.add(genp("s", "a", "v", accessibility: .whenPasscodeSetThisDeviceOnly)) } == .notAvailable)
        #expect(status { try store.add(genp("s", "a", "v", accessibility: .whenUnlockedThisDeviceOnly)) } == .success)
    }
}
