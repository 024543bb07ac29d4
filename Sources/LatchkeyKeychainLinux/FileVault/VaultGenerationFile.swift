import Foundation
import LatchkeyKeychainCore

/// Rollback detection: every write transaction increments the vault's `generation` (inside the file), and
/// after COMMIT the new value is also written to `<vault>.generation` beside it. A vault whose generation is
/// below the recorded one has lost writes it acknowledged — a cut or damaged WAL, which SQLite reads as
/// "the log ends here" and would silently serve older values from — and is refused with errSecDecode.
///
/// The record is written after the commit's fsync and is not synced itself, so a crash or power loss can
/// only leave it lower than the file (no false alarm), never higher. It holds no secret. Deleting it turns
/// the check off until the next write (what to do after restoring an older vault file on purpose).
final class VaultGenerationFile {
    let path: String
    private let files: VaultFileOperations
    private var fd: Int32 = -1
    static let magic: [UInt8] = Array("LKGEN\u{0}\u{0}\u{1}".utf8)

    init(vaultPath: String, files: VaultFileOperations = .current) {
        path = vaultPath + ".generation"
        self.files = files
    }

    deinit {
        if fd >= 0 { _ = files.close(fd) }
    }

    /// The recorded generation; nil when there is none or the record is unreadable.
    func read() -> Int64? {
        guard let data = FileManager.default.contents(atPath: path), data.count == 16,
              Array(data.prefix(8)) == Self.magic else { return nil }
        return data.suffix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// Records `generation` (best effort: a failure only weakens the check).
    func record(_ generation: Int64) {
        if fd < 0 {
            fd = files.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { return }
        }
        var bytes = Self.magic
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: generation >> Int64(shift))) }
        _ = bytes.withUnsafeBytes { files.pwrite(fd, $0, 0) }
    }
}
