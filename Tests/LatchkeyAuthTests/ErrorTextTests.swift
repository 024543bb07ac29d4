import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("Error texts", .offCooperativePool)
struct ErrorTextTests {
    @Test func everyErrorHasEnglishAndKoreanText() {
        for error in AuthenticationError.allCases {
            let english = AuthenticationErrorText.text(for: error, language: .english)
            let korean = AuthenticationErrorText.text(for: error, language: .korean)
            #expect(!english.isEmpty && !korean.isEmpty && english != korean)
        }
    }

    @Test func codesAreLAErrorCodes() {
        #expect(AuthenticationError.authenticationFailed.code == -1)
        #expect(AuthenticationError.biometryLockout.code == -8)
        #expect(AuthenticationError.invalidContext.code == -10)
        #expect(AuthenticationError.notInteractive.code == -1004)
    }

    @Test func passcodeNeverPrintsItsValue() {
        let passcode = Passcode("hunter2")
        #expect(!String(describing: passcode).contains("hunter2"))
        #expect(!String(reflecting: passcode).contains("hunter2"))
        #expect(passcode.withBytes { Array($0) } == Array("hunter2".utf8))
    }
}
