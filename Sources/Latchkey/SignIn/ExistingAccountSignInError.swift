import Foundation
import LatchkeyCrypto

/// Why the existing-account flow did not start a session (closing the sheet, or having nothing to offer, is not an
/// error: `ExistingAccountSignIn.signIn()` returns nil).
public enum ExistingAccountSignInError: Error, Sendable, Equatable {
    /// The sheet failed.
    case authorization(AuthorizationCeremonyError)
    /// Sign in with Apple's exchange with the server failed.
    case apple(SignInWithAppleError)
    /// The saved password's sign-in failed (a password changed since it was saved is `.invalidCredentials`).
    case password(PasswordSessionError)
    /// The passkey's options or its verification failed.
    case passkey(PasskeyClientError)
}

extension ExistingAccountSignInError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in language `l`.
    public func message(in l: MessageLanguage) -> String {
        switch self {
        case .authorization(let failure): failure.message(in: l)
        case .apple(let failure): failure.errorDescription ?? l.pick(english: "Sign in with Apple failed.",
                                                                      korean: "Apple로 로그인하지 못했습니다.")
        case .password(let failure): failure.message(in: l)
        case .passkey(let failure): failure.errorDescription ?? l.pick(english: "The passkey sign-in failed.",
                                                                        korean: "패스키로 로그인하지 못했습니다.")
        }
    }
}
