#if canImport(SwiftUI) && canImport(AuthenticationServices)
import AuthenticationServices
import Latchkey
import SwiftUI

/// The sign-in screen: a passkey button, Apple's Sign in with Apple button and the error line, laid out from
/// `SignInScreenModel`, which decides all of them. Apple's button runs the authorization itself and hands its request
/// and result to the model.
public struct SignInScreen<Session>: View {
    private let model: SignInScreenModel<Session, ASAuthorization>

    /// A sign-in screen over `model`.
    public init(model: SignInScreenModel<Session, ASAuthorization>) {
        self.model = model
    }

    public var body: some View {
        VStack(spacing: 12) {
            if model.offers(.passkey) {
                Button {
                    Task { await model.signInWithPasskey() }
                } label: {
                    Label(model.title(for: .passkey), systemImage: SignInMethod.passkey.systemImageName)
                        .frame(maxWidth: .infinity)
                }
                .buttonStyle(.bordered)
                .disabled(!model.isEnabled(.passkey))
                .overlay {
                    if model.isInFlight(.passkey) { ProgressView() }
                }
            }
            if model.offers(.apple) {
                SignInWithAppleButton(.signIn) { request in
                    request.requestedScopes = [.fullName, .email]
                    request.nonce = model.startAppleSignIn()?.hashed
                } onCompletion: { result in
                    Task { await model.finishAppleSignIn(result) }
                }
                .frame(height: 44)
                .disabled(!model.isEnabled(.apple))
                .overlay {
                    if model.isInFlight(.apple) { ProgressView() }
                }
            }
            if let message = model.errorMessage {
                Text(message)
                    .foregroundStyle(.red)
                    .multilineTextAlignment(.center)
            }
        }
        .padding()
    }
}
#endif
