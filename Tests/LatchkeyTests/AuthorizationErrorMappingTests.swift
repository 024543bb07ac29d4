import Foundation
import LatchkeyCrypto
import LocalAuthentication
import Testing
@testable import AuthenticationServices
@testable import Latchkey

/// How `ASAuthorizationError` reaches the kit's typed errors, and their texts in both languages.
@Suite struct AuthorizationErrorMappingTests {
    static let everyCase: [AuthorizationCeremonyError] = [
        .canceled, .credentialExists, .notInteractive, .deviceNotConfigured, .invalidResponse("why"), .invalidResponse(nil),
        .notHandled, .failed("reason"), .failed(nil), .unknown(code: 1000, reason: nil),
    ]

    @Test func appleCodesBecomeTheKitsCases() {
        let expected: [(Int, AuthorizationCeremonyError)] = [
            (1000, .unknown(code: 1000, reason: "r")), (1001, .canceled), (1002, .invalidResponse("r")), (1003, .notHandled),
            (1004, .failed("r")), (1005, .notInteractive), (1006, .credentialExists), (1007, .unknown(code: 1007, reason: "r")),
            (1010, .deviceNotConfigured),
        ]
        for (code, error) in expected {
            #expect(AuthorizationCeremonyError(authorizationErrorCode: code, reason: "r") == error)
        }
        #expect(AuthorizationCeremonyError.canceled.isCancellation && !AuthorizationCeremonyError.canceled.shouldShowToUser)
        #expect(Self.everyCase.filter(\.shouldShowToUser).count == Self.everyCase.count - 1)
    }

    @Test func everyErrorHasEnglishAndKoreanText() {
        for error in Self.everyCase {
            let english = error.message(in: .english), korean = error.message(in: .korean)
            #expect(!english.isEmpty && !korean.isEmpty && english != korean)
        }
        #expect(AuthorizationCeremonyError.failed("Associated domains").message(in: .english).hasSuffix("Associated domains"))
        let flow: [SignInWithAppleError] = [.canceled, .authorization(.failed(nil)), .stateMismatch, .network("down"),
                                            .rejected(status: 401, error: "invalid_grant", description: nil), .badResponse]
        for error in flow {
            let english = error.message(in: .english), korean = error.message(in: .korean)
            #expect(!english.isEmpty && !korean.isEmpty && english != korean)
        }
    }

    @Test func systemErrorsMapThroughTheirDomain() {
        #expect(AuthorizationCeremonyError(ASAuthorizationError(.canceled)) == .canceled)
        let reason = ASAuthorizationError(.failed, userInfo: [NSLocalizedFailureReasonErrorKey: "Unable to verify webcredentials"])
        #expect(AuthorizationCeremonyError(reason) == .failed("Unable to verify webcredentials"))
        let bridged = NSError(domain: ASAuthorizationErrorDomain, code: 1006)
        #expect(AuthorizationCeremonyError(bridged) == .credentialExists)
        #expect(AuthorizationCeremonyError(CancellationError()) == .canceled)
        #expect(AuthorizationCeremonyError(URLError(.timedOut)) == .failed(URLError(.timedOut).localizedDescription))
    }

    @Test func ceremonyFailuresReachTheClientsErrors() {
        #expect(PasskeyClientError(ceremony: AuthorizationCeremonyError.canceled) == .canceled)
        #expect(PasskeyClientError(ceremony: CancellationError()) == .canceled)
        #expect(PasskeyClientError(ceremony: AuthorizationCeremonyError.credentialExists) == .ceremony(.credentialExists))
        #expect(!PasskeyClientError.canceled.shouldShowToUser && PasskeyClientError.ceremony(.notHandled).shouldShowToUser)
        #expect(SignInWithAppleError(authorization: AuthorizationCeremonyError.canceled) == .canceled)
        #expect(SignInWithAppleError(authorization: AuthorizationCeremonyError.notInteractive) == .authorization(.notInteractive))
    }

    /// The Linux module: a prompt's `LAError` becomes Apple's `ASAuthorizationError` code.
    @Test func promptOutcomesBecomeAuthorizationErrors() {
        let cases: [(LAError.Code, Bool, ASAuthorizationError.Code)] = [
            (.userCancel, false, .canceled), (.appCancel, false, .canceled), (.systemCancel, false, .canceled),
            (.userFallback, false, .canceled), (.notInteractive, false, .notInteractive),
            (.authenticationFailed, false, .failed), (.biometryLockout, false, .failed), (.passcodeNotSet, false, .failed),
            (.passcodeNotSet, true, .deviceNotConfiguredForPasskeyCreation),
        ]
        for (code, registration, expected) in cases {
            #expect(AuthorizationPerformer.mapping(LAError(code), registration: registration).code == expected)
        }
        let text = ASAuthorizationError(.failed, userInfo: [NSLocalizedFailureReasonErrorKey: "why"])
        #expect((text as NSError).userInfo[NSLocalizedFailureReasonErrorKey] as? String == "why")
        #expect(text.localizedDescription.hasSuffix("why"))
    }
}
