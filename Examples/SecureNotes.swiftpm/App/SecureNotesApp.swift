import Latchkey
import SecureNotesCore
import SwiftUI

/// The secure-notes app: `SecureNotesModel` (SecureNotesCore, tested on Linux) decides everything; the views lay it out.
@main
struct SecureNotesApp: App {
    /// Until the user types another in Settings (the address of your `latchkey serve`, behind HTTPS for passkeys).
    static let defaultServer = URL(string: "https://notes.example.com") ?? URL(fileURLWithPath: "/")

    @State private var model = SecureNotesModel(environment: .device(
        service: Bundle.main.bundleIdentifier ?? "com.example.SecureNotes", defaultServer: SecureNotesApp.defaultServer))

    var body: some Scene {
        WindowGroup {
            RootView(model: model)
        }
    }
}
