import Foundation
import Latchkey
import LatchkeyCrypto
import Testing
@testable import SecureNotesExampleCore

/// The example app's notes in the keychain: one item per note, per account; locked notes behind Face ID or the
/// passcode each time (`ProtectedItem`).
@Suite("Secure notes: NotesStore")
struct NotesStoreTests {
    private func thrown(_ body: () async throws -> Void) async -> NotesError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? NotesError
        }
    }

    @Test func notesAreKeptPerAccountNewestFirst() async throws {
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        let mina = world.notes(owner: "local:mina")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let groceries = try mina.add(title: "  Groceries ", body: "milk", now: start)
        let door = try mina.add(title: "Door code", body: "4711", now: start.addingTimeInterval(60))
        #expect(groceries.title == "Groceries")
        #expect(try mina.notes().map(\.title) == ["Door code", "Groceries"])

        let edited = try await mina.update(groceries.id, title: "Groceries", body: "milk, eggs", reason: "r",
                                           now: start.addingTimeInterval(120))
        #expect(edited.body == "milk, eggs" && edited.created == start)
        #expect(try mina.notes().map(\.title) == ["Groceries", "Door code"])
        #expect(try mina.note(groceries.id).body == "milk, eggs")

        // Another account sees none of them; the same account in a new store (a relaunch) sees them all.
        #expect(try world.notes(owner: "localhost:ada").notes().isEmpty)
        #expect(try world.notes(owner: "local:mina").notes().count == 2)

        try mina.delete(door.id)
        #expect(try mina.notes().map(\.id) == [groceries.id])
        #expect(await thrown { try mina.delete(door.id) } == .notFound)
        #expect(await thrown { _ = try mina.note(door.id) } == .notFound)
        try mina.deleteAll()
        #expect(try mina.notes().isEmpty)
    }

    @Test func titlesAreChecked() async throws {
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        let store = world.notes(owner: "local:mina")
        #expect(await thrown { try store.add(title: " \n ", body: "x") } == .emptyTitle)
        let long = String(repeating: "가", count: NotesStore.maximumTitleLength + 1)
        #expect(await thrown { try store.add(title: long, body: "x") } == .titleTooLong(maximum: 200))
        #expect(try store.add(title: String(long.dropLast()), body: "x").title.count == 200)
        #expect(NotesError.emptyTitle.message(in: .english) == "Give the note a title.")
        #expect(NotesError.emptyTitle.message(in: .korean) == "메모 제목을 입력하세요.")
        #expect(NotesError.titleTooLong(maximum: 200).message(in: .korean) == "제목이 200자보다 깁니다.")
    }

    /// Locking asks for Face ID; a locked note lists without its text and opens only after Face ID or the passcode;
    /// a cancelled prompt changes nothing; unlocking puts the text back in the plain item.
    @Test func lockedNotesOpenOnlyForTheOwner() async throws {
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        let store = world.notes(owner: "local:mina")
        let note = try store.add(title: "Bank", body: "PIN 8642")

        try world.phone.next(.cancel)
        #expect(await thrown { try await store.setLocked(true, note.id, reason: "Lock") } == .authentication(.userCancel))
        #expect(try store.note(note.id).isLocked == false && store.note(note.id).body == "PIN 8642")
        #expect(NotesError.authentication(.userCancel).shouldShowToUser == false)

        try world.phone.next(.match)
        let locked = try await store.setLocked(true, note.id, reason: "Lock")
        #expect(locked.isLocked && locked.body == "PIN 8642")
        let listed = try #require(try store.notes().first)
        #expect(listed.isLocked && listed.body.isEmpty)

        try world.phone.next(.noMatch)   // Face ID fails: the passcode (2468) opens it, as .userPresence allows
        #expect(try await store.open(note.id, reason: "Open").body == "PIN 8642")
        try world.phone.next(.cancel)
        #expect(await thrown { _ = try await store.open(note.id, reason: "Open") } == .authentication(.userCancel))

        try world.phone.next(.match)
        let changed = try await store.update(note.id, title: "Bank", body: "PIN 1357", reason: "Save")
        #expect(changed.body == "PIN 1357" && changed.isLocked)
        #expect(try store.note(note.id).body.isEmpty)
        try world.phone.next(.match)
        #expect(try await store.open(note.id, reason: "Open").body == "PIN 1357")

        try world.phone.next(.match)
        let unlocked = try await store.setLocked(false, note.id, reason: "Unlock")
        #expect(!unlocked.isLocked && unlocked.body == "PIN 1357")
        #expect(try store.note(note.id).body == "PIN 1357")
        #expect(try world.phone.simulator.sensor().pendingOutcomes.isEmpty)
        #expect(try await store.open(note.id, reason: "no prompt for an unlocked note").body == "PIN 1357")

        try world.phone.next(.match)
        try await store.setLocked(true, note.id, reason: "Lock")
        try store.delete(note.id)   // no prompt
        #expect(try store.notes().isEmpty)
    }

    @Test func descriptionsNameNoWords() throws {
        // Words no UUID can hold (the note's id is printed: a body of digits matched a random id once).
        let note = Note(title: "Door code", body: "open sesame", created: Date(), modified: Date())
        for text in [String(describing: note), String(reflecting: note), "\(Mirror(reflecting: note).children.map(\.value))"] {
            #expect(!text.contains("sesame") && !text.contains("Door code"), "\(text)")
        }
    }
}
