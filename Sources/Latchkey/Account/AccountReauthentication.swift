import Foundation

/// How the app proves the user again when the server asks for a recent sign-in (`StepUpChallenge`): a sign-in sent
/// with the challenge's access token as the Bearer, so the server renews the same session, whose tokens it returns.
/// `AccountManager` runs it once per request and retries that request once.
///
/// ```swift
/// .passkey(PasskeyClient(baseURL: api, ceremony: PlatformPasskeyCeremony()))        // the passkey sheet
/// .signInWithApple(apple, authorizer: SystemAppleIDAuthorizer(), server: AppleSessionClient(baseURL: api))
/// .password(PasswordSessionClient(baseURL: api)) { username in await passwordSheet.ask(for: username) }
/// ```
public struct AccountReauthentication: Sendable {
    /// Signs in again for `challenge` and returns the server's tokens. A cancellation (the user closed the sheet or the
    /// prompt) throws the ceremony's own cancellation, `CancellationError` or `AccountManagerError.canceled`.
    public typealias SignIn = @Sendable (StepUpChallenge) async throws -> TokenGrant

    let signIn: SignIn

    /// A re-authentication of the app's own.
    public init(_ signIn: @escaping SignIn) {
        self.signIn = signIn
    }

    /// Runs the re-authentication for `challenge`.
    public func callAsFunction(_ challenge: StepUpChallenge) async throws -> TokenGrant {
        try await signIn(challenge)
    }

    /// A passkey through `client`'s ceremony (`PlatformPasskeyCeremony` in an app: the system's sheet).
    public static func passkey(_ client: PasskeyClient) -> AccountReauthentication {
        AccountReauthentication { challenge in try await client.signIn(reauthenticating: challenge.accessToken) }
    }

    /// Sign in with Apple through `authorizer` (`SystemAppleIDAuthorizer` in an app), its session renewed by `server`.
    /// No name or email is asked for: Apple shares them only once, at the first sign-in.
    public static func signInWithApple(_ apple: AppleSignIn, authorizer: any AppleIDAuthorizing,
                                       server: AppleSessionClient) -> AccountReauthentication {
        AccountReauthentication { challenge in
            try await apple.signIn(with: authorizer, server: server, scopes: [],
                                   linkingWith: challenge.accessToken).tokens
        }
    }

    /// The account's password: `prompt` receives the account's user name (`GET /v1/me`) and returns the password the
    /// user typed, or `nil` when they cancelled.
    public static func password(_ client: PasswordSessionClient,
                                prompt: @escaping @Sendable (_ username: String) async -> String?)
        -> AccountReauthentication {
        AccountReauthentication { challenge in
            let http = AccountHTTP(baseURL: client.baseURL, session: client.session)
            let answer = try await http.send("GET", "v1/me", bearer: challenge.accessToken)
            guard answer.status == 200 else { throw answer.status == 401 ? AccountManagerError.notSignedIn : answer.rejection }
            let username = try answer.decode(AccountProfile.self, "account").username
            guard let password = await prompt(username) else { throw AccountManagerError.canceled }
            do throws(PasswordSessionError) {
                return try await client.signIn(username: username, password: password,
                                               reauthenticating: challenge.accessToken)
            } catch {
                throw AccountManagerError(error)
            }
        }
    }
}
