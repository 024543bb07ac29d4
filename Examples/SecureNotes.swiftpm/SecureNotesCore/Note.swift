import Foundation

/// A secure note. The text of a locked note is kept apart and read only after Face ID or the device passcode
/// (`NotesStore.open(_:reason:)`); until then `body` is empty.
///
/// The note's words are the user's secrets: `description` and the mirror name only its identifier.
public struct Note: Codable, Sendable, Hashable, Identifiable, CustomStringConvertible, CustomReflectable {
    public var id: UUID
    public var title: String
    public var body: String
    /// Whether opening the note asks for Face ID (or the device passcode) each time.
    public var isLocked: Bool
    public var created: Date
    public var modified: Date

    public init(id: UUID = UUID(), title: String, body: String, isLocked: Bool = false, created: Date, modified: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.isLocked = isLocked
        self.created = created
        self.modified = modified
    }

    public var description: String { "Note(\(id), locked: \(isLocked))" }

    public var customMirror: Mirror { Mirror(self, children: ["id": id, "isLocked": isLocked]) }
}
