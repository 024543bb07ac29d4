#if canImport(SwiftUI)
import Latchkey
import SwiftUI

/// The lock screen: the sensor's symbol, a title and a message, the unlock button, "Use Passcode" and "Log In with
/// Password", laid out from `LockScreenModel`, which decides all of them.
public struct LockScreen: View {
    private let model: LockScreenModel

    /// A lock screen over `model`.
    public init(model: LockScreenModel) {
        self.model = model
    }

    public var body: some View {
        VStack(spacing: 16) {
            Image(systemName: model.systemImageName)
                .font(.system(size: 64))
                .foregroundStyle(.tint)
                .accessibilityHidden(true)
            Text(model.title)
                .font(.title2.bold())
            if let message = model.message {
                Text(message)
                    .multilineTextAlignment(.center)
                    .foregroundStyle(.secondary)
            }
            if let button = model.primaryButton {
                Button {
                    Task { await model.performPrimaryAction() }
                } label: {
                    Label(button.title, systemImage: button.systemImageName)
                }
                .buttonStyle(.borderedProminent)
                .disabled(!button.isEnabled)
            }
            if model.showsUsePasscode {
                Button(model.usePasscodeTitle) {
                    Task { await model.usePasscode() }
                }
            }
            if model.showsPasswordLogin {
                Button(model.passwordLoginTitle) {
                    model.logInWithPassword()
                }
            }
        }
        .padding(32)
    }
}
#endif
