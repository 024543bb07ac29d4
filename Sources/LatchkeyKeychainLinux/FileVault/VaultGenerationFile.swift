import Foundation
import LatchkeyKeychainCore

/// Rollback detection: every write transaction gives the vault a new `generation` (inside the file: `VaultFormat`),
/// and after COMMIT that generation and the vault's id are also written to `<vault>.generation` beside it. A vault
/// whose generation is below the recorded one has lost writes it acknowledged — a cut or damaged WAL, which SQLite
/// reads as "the log ends here" and would silently serve older values from, or an older copy put in its place — and
/// is refused with errSecDecode; so is another vault's file in its place (the id differs), and a missing or empty file
/// where writes were recorded.
///
/// The record is written after the commit's fsync and is not synced itself, so a crash or power loss can only leave
/// it lower than the file (no false alarm), never higher. Its creation is synced once (the file and its directory),
/// so that after a power cut it is there with some generation. It holds no secret. Deleting it turns the check off
/// until the next write (what to do after restoring an older vault file on purpose).
///
/// Format: "LKGEN\0\0\u{2}" ‖ vault id (16 bytes) ‖ generation (8 bytes, big-endian). The version-1 record
/// ("LKGEN\0\0\u{1}" ‖ generation, 16 bytes) is read too (no vault id) and replaced at the next write.
final class VaultGenerationFile {
    struct Record: Equatable {
        var generation: Int64
        /// Nil in a version-1 record.
        var vaultID: Data?
    }

    let path: String
    private let files: VaultFileOperations
    private var fd: Int32 = -1
    static let magic1: [UInt8] = Array("LKGEN\u{0}\u{0}\u{1}".utf8)
    static let magic2: [UInt8] = Array("LKGEN\u{0}\u{0}\u{2}".utf8)

    init(vaultPath: String, files: VaultFileOperations = .current) {
        path = vaultPath + ".generation"
        self.files = files
    }

    deinit {
        if fd >= 0 { _ = files.close(fd) }
    }

    /// The record; nil when there is none or it is unreadable.
    func read() -> Record? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        func integer(_ slice: ArraySlice<UInt8>) -> Int64 { slice.reduce(Int64(0)) { $0 << 8 | Int64($1) } }
        if bytes.count == 16, Array(bytes.prefix(8)) == Self.magic1 {
            return Record(generation: integer(bytes[8..<16]), vaultID: nil)
        }
        if bytes.count == 32, Array(bytes.prefix(8)) == Self.magic2 {
            return Record(generation: integer(bytes[24..<32]), vaultID: Data(bytes[8..<24]))
        }
        return nil
    }

    /// Records `generation` of the vault `vaultID` (best effort: a failure only weakens the check).
    func record(_ generation: Int64, vaultID: Data) {
        var created = false
        if fd < 0 {
            created = !FileManager.default.fileExists(atPath: path)
            // A record that does not read (damaged, or of another size) is cut to nothing first, so it reads again.
            let truncate = !created && read() == nil ? O_TRUNC : 0
            fd = files.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | truncate, 0o600)
            guard fd >= 0 else { return }
        }
        var bytes = Self.magic2
        bytes.append(contentsOf: vaultID.prefix(16))
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: generation >> Int64(shift))) }
        guard bytes.withUnsafeBytes({ files.writeAll(fd, $0) }) else { return }
        if created {
            _ = files.fsync(fd)
            _ = files.fsyncDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        }
    }
}
