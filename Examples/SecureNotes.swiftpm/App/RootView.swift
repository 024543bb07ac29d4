import Latchkey
import LatchkeyUI
import SecureNotesCore
import SwiftUI

/// The screen the lock decides: the notes, the lock screen or the sign-in screen; the password form as a sheet; the
/// privacy cover whenever the app is not active.
struct RootView: View {
    let model: SecureNotesModel

    var body: some View {
        @Bindable var lockScreen = model.lockScreen
        Group {
            switch model.lockScreen.presentation {
            case .content: NotesListView(model: model)
            case .lockScreen: LockScreen(model: model.lockScreen)
            case .login: LoginView(model: model)
            }
        }
        .sheet(isPresented: $lockScreen.isPasswordLoginPresented) {
            PasswordLoginForm(model: model.passwordForm)
        }
        .privacyCover(model.lockScreen)
        .task { await model.launch() }
        .onChange(of: model.lockScreen.presentation) { model.refresh() }
        .alert(model.errorMessage ?? "", isPresented: Binding(get: { model.errorMessage != nil },
                                                              set: { if !$0 { model.dismissError() } })) {
            Button("OK", role: .cancel) {}
        }
    }
}
