/// Where a sign-in screen stands.
public enum SignInScreenState: Sendable, Hashable {
    /// Waiting for a button.
    case idle
    /// A sign-in is running (its button shows progress, the others are disabled).
    case signingIn(SignInMethod)
    /// The last sign-in failed; the screen shows the error's text.
    case failed(SignInMethod, SignInScreenError)
    /// Signed in: the session went to the app.
    case signedIn(SignInMethod)
}
