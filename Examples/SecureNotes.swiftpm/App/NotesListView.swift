import Latchkey
import SecureNotesCore
import SwiftUI

/// The notes (the lock's content): add, open, delete; lock the app; settings.
struct NotesListView: View {
    let model: SecureNotesModel
    @State private var showsSettings = false
    @State private var newNote = false

    var body: some View {
        NavigationStack {
            List {
                ForEach(model.notes) { note in
                    NavigationLink(value: note.id) {
                        Label(note.title, systemImage: note.isLocked ? "lock.fill" : "note.text")
                    }
                }
                .onDelete { offsets in
                    for index in offsets { model.delete(model.notes[index].id) }
                }
            }
            .overlay {
                if model.notes.isEmpty { ContentUnavailableView("No Notes", systemImage: "note.text") }
            }
            .navigationTitle(model.account?.username ?? "Notes")
            .navigationDestination(for: UUID.self) { id in NoteEditor(model: model, id: id) }
            .toolbar {
                ToolbarItem(placement: .primaryAction) {
                    Button("New Note", systemImage: "square.and.pencil") { newNote = true }
                }
                ToolbarItem(placement: .topBarLeading) {
                    Button("Lock", systemImage: "lock") { model.lock() }
                }
                ToolbarItem(placement: .topBarLeading) {
                    Button("Settings", systemImage: "gear") { showsSettings = true }
                }
            }
            .sheet(isPresented: $newNote) {
                NavigationStack { NoteEditor(model: model, id: nil) }
            }
            .sheet(isPresented: $showsSettings) { SettingsView(model: model) }
        }
    }
}
