import Latchkey
import SecureNotesCore
import SwiftUI

/// One note: its title and text (a locked note's text after Face ID or the passcode), saved on demand; lock or unlock.
struct NoteEditor: View {
    let model: SecureNotesModel
    /// nil: a new note.
    let id: UUID?
    @State private var title = ""
    @State private var text = ""
    @State private var isLocked = false
    @State private var opened = false
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        Form {
            TextField("Title", text: $title)
            TextEditor(text: $text)
                .frame(minHeight: 240)
                .disabled(id != nil && !opened)
            if let id {
                Toggle("Locked", isOn: Binding(get: { isLocked }, set: { locked in
                    Task { if await model.setLocked(locked, id) { isLocked = locked } }
                }))
            }
        }
        .toolbar {
            Button("Save") {
                Task {
                    var saved = false
                    if let id {
                        saved = await model.save(id, title: title, body: text)
                    } else {
                        saved = model.addNote(title: title, body: text)
                    }
                    if saved { dismiss() }
                }
            }
        }
        .task {
            guard let id, let note = await model.open(id) else { return }
            (title, text, isLocked, opened) = (note.title, note.body, note.isLocked, true)
        }
    }
}
