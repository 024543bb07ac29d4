import Latchkey
import LatchkeyUI
import SecureNotesCore
import SwiftUI

/// Signed out: passkey and Sign in with Apple (`SignInScreen`), a new account with a passkey, the app's own password,
/// and the server's address.
struct LoginView: View {
    let model: SecureNotesModel
    @State private var newUsername = ""
    @State private var showsSettings = false

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    SignInScreen(model: model.signIn)
                }
                Section("New account with a passkey") {
                    TextField("User name", text: $newUsername)
                        .textContentType(.username)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    Button("Create Account") {
                        Task { await model.createPasskeyAccount(username: newUsername) }
                    }
                    .disabled(newUsername.isEmpty)
                }
                Section {
                    Button(model.lockScreen.passwordLoginTitle) { model.lockScreen.logInWithPassword() }
                }
            }
            .navigationTitle("Secure Notes")
            .toolbar {
                Button("Server", systemImage: "server.rack") { showsSettings = true }
            }
            .sheet(isPresented: $showsSettings) { SettingsView(model: model) }
        }
    }
}
