import Foundation
import Latchkey

/// A secure note.
struct VaultNote: Codable, Sendable {
    var title: String
    var body: String
    var created: Date
    var modified: Date
}

/// The notes, one keychain item each (generic password; account = title), readable only while unlocked
/// and never leaving this device.
struct VaultNoteStore: Sendable {
    let keychain: Keychain

    init(store: any ItemStore) {
        keychain = Keychain(service: "org.latchkey.vault.notes", store: store)
            .accessibility(.whenUnlockedThisDeviceOnly)
            .label("Latchkey vault note")
    }

    func titles() throws(KeychainError) -> [String] { try keychain.allKeys() }

    func note(_ title: String) throws(KeychainError) -> VaultNote? {
        try keychain.value(VaultNote.self, forKey: title)
    }

    /// Adds a new note; `.duplicateEntry` if the title is taken.
    func add(title: String, body: String, now: Date) throws(KeychainError) {
        guard try !keychain.contains(title) else { throw .duplicateEntry }
        try keychain.set(VaultNote(title: title, body: body, created: now, modified: now), forKey: title)
    }

    /// Replaces a note's body; `.itemNotFound` if there is no such note.
    func edit(title: String, body: String, now: Date) throws(KeychainError) {
        guard var note = try note(title) else { throw .itemNotFound }
        note.body = body
        note.modified = now
        try keychain.set(note, forKey: title)
    }

    func delete(_ title: String) throws(KeychainError) {
        guard try keychain.contains(title) else { throw .itemNotFound }
        try keychain.remove(title)
    }
}
