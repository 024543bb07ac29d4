import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("PAM return codes → AuthenticationError", .offCooperativePool)
struct PAMStatusTests {
    @Test func passcodeMapping() {
        #expect(PAMStatus.passcodeError(0) == nil)
        #expect(PAMStatus.passcodeError(7) == .authenticationFailed)   // PAM_AUTH_ERR
        #expect(PAMStatus.passcodeError(10) == .authenticationFailed)  // PAM_USER_UNKNOWN
        #expect(PAMStatus.passcodeError(11) == .authenticationFailed)  // PAM_MAXTRIES
        #expect(PAMStatus.passcodeError(6) == .authenticationFailed)   // PAM_PERM_DENIED
        #expect(PAMStatus.passcodeError(13) == .authenticationFailed)  // PAM_ACCT_EXPIRED
        #expect(PAMStatus.passcodeError(12) == .authenticationFailed)  // PAM_NEW_AUTHTOK_REQD
        #expect(PAMStatus.passcodeError(9) == .passcodeNotSet)         // PAM_AUTHINFO_UNAVAIL
        #expect(PAMStatus.passcodeError(19) == .userCancel)            // PAM_CONV_ERR
        #expect(PAMStatus.passcodeError(19, conversation: .init(noResponder: true)) == .notInteractive)
        #expect(PAMStatus.passcodeError(7, conversation: .init(canceled: true)) == .userCancel)
        #expect(PAMStatus.passcodeError(4) == .systemCancel)           // PAM_SYSTEM_ERR
        #expect(PAMStatus.passcodeError(26) == .systemCancel)          // PAM_ABORT
        #expect(PAMStatus.passcodeError(999) == .authenticationFailed)
    }

    @Test func everyKnownCodeMapsToSomething() {
        for status in PAMStatus.allCases where status != .success {
            #expect(PAMStatus.passcodeError(status.rawValue) != nil)
        }
        #expect(PAMStatus.incomplete.rawValue == 31)
    }

    @Test func biometricMapping() throws {
        #expect(try PAMStatus.biometricOutcome(0).get() == .match)
        #expect(try PAMStatus.biometricOutcome(7).get() == .noMatch)
        #expect(try PAMStatus.biometricOutcome(11).get() == .noMatch)
        #expect(try PAMStatus.biometricOutcome(7, conversation: .init(canceled: true)).get() == .cancel)
        #expect(throws: AuthenticationError.biometryNotAvailable) { try PAMStatus.biometricOutcome(9).get() }
        #expect(throws: AuthenticationError.authenticationFailed) { try PAMStatus.biometricOutcome(10).get() }
    }
}
