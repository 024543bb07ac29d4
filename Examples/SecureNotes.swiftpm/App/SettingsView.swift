import Latchkey
import LatchkeyUI
import SecureNotesCore
import SwiftUI

/// The server's address, the account's devices, signing out, erasing the notes, and deleting the account (App Review
/// 5.1.1(v)): the screens are LatchkeyUI's over the models `SecureNotesModel` makes for who is signed in.
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
                        if model.account?.method != .password {
                            NavigationLink("Devices") { DevicesDestination(model: model) }
                        }
                        Button("Sign Out") {
                            Task {
                                await model.signOut()
                                dismiss()
                            }
                        }
                        Button("Delete All Notes", role: .destructive) { model.deleteAllNotes() }
                    }
                    Section {
                        NavigationLink("Delete Account") {
                            DeleteAccountDestination(model: model) { dismiss() }
                        }
                        .foregroundStyle(.red)
                    }
                }
            }
            .navigationTitle("Settings")
        }
    }
}

/// "Devices": the screen's model made once, when it is shown.
private struct DevicesDestination: View {
    let model: SecureNotesModel
    @State private var devices: DevicesScreenModel?

    var body: some View {
        Group {
            if let devices { DevicesScreen(model: devices) }
        }
        .onAppear { if devices == nil { devices = model.devicesScreen() } }
    }
}

/// "Delete Account": the screen's model made once, when it is shown; settings close once the account is deleted.
private struct DeleteAccountDestination: View {
    let model: SecureNotesModel
    let close: () -> Void
    @State private var deletion: DeleteAccountScreenModel?

    var body: some View {
        Group {
            if let deletion { DeleteAccountScreen(model: deletion, onCancel: close) }
        }
        .onAppear { if deletion == nil { deletion = model.deleteAccountScreen() } }
        .onChange(of: deletion?.phase) { if deletion?.phase == .deleted { close() } }
    }
}
