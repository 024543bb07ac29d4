import Latchkey
import SecureNotesCore
import SwiftUI

/// The server's address, signing out, and erasing the notes.
struct SettingsView: View {
    @Bindable var model: SecureNotesModel
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("https://notes.example.com", text: $model.serverAddress)
                        .keyboardType(.URL)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    Button("Save Address") {
                        Task { if await model.saveServerAddress() { dismiss() } }
                    }
                } header: {
                    Text("Server")
                } footer: {
                    Text("Your latchkey serve. Passkeys need its relying party ID in the app's webcredentials associated domain.")
                }
                if model.account != nil {
                    Section {
                        Button("Sign Out") {
                            Task {
                                await model.signOut()
                                dismiss()
                            }
                        }
                        Button("Delete All Notes", role: .destructive) { model.deleteAllNotes() }
                    }
                }
            }
            .navigationTitle("Settings")
        }
    }
}
