#if canImport(SwiftUI)
import Latchkey
import SwiftUI

/// The password login form: user name, password (and its confirmation when the account is created), the
/// "Log in with Face ID next time" toggle, the submit and biometric buttons, and the messages, laid out from
/// `PasswordLoginFormModel`, which decides all of them. The form is redrawn every second, so the throttle's
/// countdown and the submit button follow the clock.
public struct PasswordLoginForm: View {
    @Bindable private var model: PasswordLoginFormModel

    /// A form over `model`.
    public init(model: PasswordLoginFormModel) {
        self.model = model
    }

    public var body: some View {
        TimelineView(.periodic(from: .now, by: 1)) { _ in
            Form {
                Section {
                    TextField(model.usernameLabel, text: $model.username)
                        .autocorrectionDisabled()
                        .autoFill(model.usernameContentType)
                    SecureField(model.passwordLabel, text: $model.password)
                        .autoFill(model.passwordContentType)
                    if model.showsPasswordConfirmation {
                        SecureField(model.passwordConfirmationLabel, text: $model.passwordConfirmation)
                            .autoFill(model.passwordConfirmationContentType)
                    }
                } header: {
                    Text(model.title)
                } footer: {
                    Notes(model.passwordHint, warning: model.passwordConfirmationMessage)
                }
                if model.showsBiometricToggle {
                    Toggle(model.biometricToggleTitle, isOn: $model.enablesBiometricLogin)
                }
                Section {
                    Button(model.submitTitle) {
                        Task { await model.submit() }
                    }
                    .disabled(!model.isSubmitEnabled)
                    if model.showsBiometricLogin {
                        Button {
                            Task { await model.logInWithBiometrics() }
                        } label: {
                            Label(model.biometricLoginTitle, systemImage: model.biometricSystemImageName)
                        }
                        .disabled(model.isSubmitting)
                    }
                } footer: {
                    Notes(model.throttleMessage, warning: model.errorMessage)
                }
            }
            .onSubmit {
                Task { await model.submit() }
            }
        }
    }
}

/// A section footer: a note, then a warning in red, each when there is one.
private struct Notes: View {
    let note: String?
    let warning: String?

    init(_ note: String?, warning: String?) {
        self.note = note
        self.warning = warning
    }

    var body: some View {
        VStack(alignment: .leading) {
            if let note {
                Text(note)
            }
            if let warning {
                Text(warning).foregroundStyle(.red)
            }
        }
    }
}
#endif
