import Foundation
import Latchkey
import LatchkeyCrypto

/// One account's notes, in the keychain of this device.
///
/// Each note is a generic-password item of the service `<service>.notes.<owner>` (the account is the note's id),
/// `whenPasscodeSetThisDeviceOnly`: unreadable while the device is locked, in no backup and no iCloud Keychain, erased
/// with the device passcode. The app lock decides who sees the list; a *locked* note's text is in addition a
/// `ProtectedItem` (`.userPresence`, of the service `<service>.locked-notes.<owner>`): Face ID, or the device passcode,
/// each time it is opened — as Notes' locked notes.
public struct NotesStore: Sendable {
    /// The longest title, in characters.
    public static let maximumTitleLength = 200

    let keychain: Keychain
    let lockedService: String
    let store: any ItemStore
    let authenticator: BiometricAuthenticator

    /// The notes of `owner` in `store`, locked ones opened through `authenticator`.
    public init(service: String, owner: String, store: any ItemStore, authenticator: BiometricAuthenticator) {
        keychain = Keychain(service: "\(service).notes.\(owner)", store: store)
            .accessibility(.whenPasscodeSetThisDeviceOnly)
            .label("Secure note")
        lockedService = "\(service).locked-notes.\(owner)"
        self.store = store
        self.authenticator = authenticator
    }

    /// Every note, most recently changed first (a locked note without its text).
    public func notes() throws(NotesError) -> [Note] {
        let keys: [String]
        do { keys = try keychain.allKeys() } catch { throw .keychain(error) }
        var notes: [Note] = []
        for key in keys {
            guard let id = UUID(uuidString: key) else { continue }
            notes.append(try note(id))
        }
        return notes.sorted { ($0.modified, $0.id.uuidString) > ($1.modified, $1.id.uuidString) }
    }

    /// The note `id` (a locked note without its text).
    public func note(_ id: UUID) throws(NotesError) -> Note {
        let stored: Note?
        do { stored = try keychain.value(Note.self, forKey: id.uuidString) } catch { throw .keychain(error) }
        guard let stored else { throw .notFound }
        return stored
    }

    /// A new note.
    @discardableResult
    public func add(title: String, body: String, now: Date = Date()) throws(NotesError) -> Note {
        let note = Note(title: try Self.checkedTitle(title), body: body, created: now, modified: now)
        try write(note)
        return note
    }

    /// New words for the note `id`. A locked note's text is sealed again, which asks for Face ID or the passcode.
    @discardableResult
    public func update(_ id: UUID, title: String, body: String, reason: String, now: Date = Date())
        async throws(NotesError) -> Note {
        var note = try note(id)
        note.title = try Self.checkedTitle(title)
        note.modified = now
        if note.isLocked {
            do { try await protected(id).save(Data(body.utf8), reason: reason) } catch { throw NotesError(error) }
        } else {
            note.body = body
        }
        try write(note)
        note.body = body
        return note
    }

    /// The note `id` with its text: a locked note asks for Face ID or the device passcode first.
    public func open(_ id: UUID, reason: String) async throws(NotesError) -> Note {
        var note = try note(id)
        guard note.isLocked else { return note }
        do {
            note.body = String(decoding: try await protected(id).read(reason: reason), as: UTF8.self)
        } catch {
            throw NotesError(error)
        }
        return note
    }

    /// Locks the note `id` (its text becomes a protected item) or removes its lock; either asks for Face ID or the
    /// passcode. A refused or cancelled prompt leaves the note as it was.
    @discardableResult
    public func setLocked(_ locked: Bool, _ id: UUID, reason: String, now: Date = Date()) async throws(NotesError) -> Note {
        var note = try await open(id, reason: reason)
        guard note.isLocked != locked else { return note }
        let body = note.body
        note.isLocked = locked
        note.modified = now
        if locked {
            do { try await protected(id).save(Data(body.utf8), reason: reason) } catch { throw NotesError(error) }
            note.body = ""
            try write(note)
        } else {
            try write(note)
            do { try protected(id).delete() } catch { throw NotesError(error) }
        }
        note.body = body
        return note
    }

    /// Deletes the note `id` (no prompt, as deleting a keychain item never asks).
    public func delete(_ id: UUID) throws(NotesError) {
        _ = try note(id)
        do { try protected(id).delete() } catch { throw NotesError(error) }
        do { try keychain.remove(id.uuidString) } catch { throw .keychain(error) }
    }

    /// Deletes every note of the account.
    public func deleteAll() throws(NotesError) {
        for note in try notes() { try delete(note.id) }
    }

    /// The keychains (services) holding only this account's notes: what deleting the account removes whole.
    public var keychains: [Keychain] { [keychain, Keychain(service: lockedService, store: store)] }

    private func write(_ note: Note) throws(NotesError) {
        do { try keychain.set(note, forKey: note.id.uuidString) } catch { throw .keychain(error) }
    }

    private func protected(_ id: UUID) -> ProtectedItem {
        ProtectedItem(service: lockedService, account: id.uuidString, protection: .userPresence, store: store,
                      authenticator: authenticator)
    }

    /// `title` without surrounding white space, or why it cannot be a title.
    public static func checkedTitle(_ title: String) throws(NotesError) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyTitle }
        guard trimmed.count <= maximumTitleLength else { throw .titleTooLong(maximum: maximumTitleLength) }
        return trimmed
    }
}
