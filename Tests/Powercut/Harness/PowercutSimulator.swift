import CPowercut
import CSQLite
import Foundation
import LatchkeyKeychainLinux

/// The C simulator (Tests/Powercut/CPowercut) seen from Swift: one watched directory per process at a time.
package enum PowercutSimulator {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private static let installation: Result<Void, Failure> = {
        let rc = powercut_install()
        guard rc == SQLITE_OK else { return .failure(Failure(description: "powercut_install: SQLite \(rc)")) }
        VaultFileOperations.current = shim
        return .success(())
    }()

    /// Makes the VFS SQLite's default and routes the vault's own file operations through the shim (once).
    package static func install() throws(Failure) { try installation.get() }

    /// The vault's file operations through the simulator's shim.
    static let shim = VaultFileOperations(
        open: { path, flags, mode in powercut_file_open(path, flags, mode) },
        pwrite: { fd, bytes, offset in powercut_file_pwrite(fd, bytes.baseAddress, bytes.count, offset) },
        fsync: { fd in powercut_file_fsync(fd) },
        close: { fd in powercut_file_close(fd) },
        rename: { from, to in powercut_file_rename(from, to) },
        link: { from, to in powercut_file_link(from, to) },
        unlink: { path in powercut_file_unlink(path) },
        fsyncDirectory: { path in powercut_directory_fsync(path) })

    /// Starts watching `directory`: what is in it now is durable.
    package static func begin(_ directory: URL) throws(Failure) {
        guard powercut_begin(directory.path) == 0 else { throw Failure(description: "powercut_begin \(directory.path)") }
    }

    package static func end() { powercut_end() }

    /// Cuts at the `events`-th mutating call from now.
    package static func arm(after events: Int) { powercut_arm(Int64(events)) }

    package static var events: Int { Int(powercut_events()) }

    package static var hasCut: Bool { powercut_has_cut() != 0 }

    package static func cutNow() { powercut_cut_now() }

    package static func ignoreSyncs(_ ignored: Bool) { powercut_set_sync_ignored(ignored ? 1 : 0) }

    /// The cut's aftermath (see `powercut_reboot`): returns what was dropped, in one line.
    package static func reboot(seed: UInt64, keepPercent: Int) throws(Failure) -> String {
        var report = [CChar](repeating: 0, count: 512)
        let rc = powercut_reboot(seed, Int32(keepPercent), &report, report.count)
        let text = String(decoding: report.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard rc == 0 else { throw Failure(description: "powercut_reboot failed (errno \(errno)): \(text)") }
        return text
    }
}
