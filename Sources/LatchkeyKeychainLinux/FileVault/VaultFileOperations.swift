import Foundation
import LatchkeyKeychainCore
import LatchkeyOpenSSL
import LatchkeySupport

/// The system calls the vault makes on files of its own, outside SQLite: the vault file's creation, its generation
/// record, the device key file, backup files. They are the plain POSIX calls (`posix`); the power-cut tests
/// (Tests/Powercut) put their simulator's versions in `current`, as they put an SQLite VFS under the database itself,
/// so that a simulated cut sees every write and every directory change the vault makes. Nothing else sets it.
package struct VaultFileOperations: Sendable {
    package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    package var pwrite: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: off_t) -> Int
    package var fsync: @Sendable (_ fd: Int32) -> Int32
    package var close: @Sendable (_ fd: Int32) -> Int32
    package var rename: @Sendable (_ from: String, _ to: String) -> Int32
    package var link: @Sendable (_ from: String, _ to: String) -> Int32
    package var unlink: @Sendable (_ path: String) -> Int32
    /// Makes the entries of a directory durable (fsync of the directory).
    package var fsyncDirectory: @Sendable (_ path: String) -> Int32

    package init(open: @escaping @Sendable (String, Int32, mode_t) -> Int32,
                 pwrite: @escaping @Sendable (Int32, UnsafeRawBufferPointer, off_t) -> Int,
                 fsync: @escaping @Sendable (Int32) -> Int32, close: @escaping @Sendable (Int32) -> Int32,
                 rename: @escaping @Sendable (String, String) -> Int32, link: @escaping @Sendable (String, String) -> Int32,
                 unlink: @escaping @Sendable (String) -> Int32, fsyncDirectory: @escaping @Sendable (String) -> Int32) {
        self.open = open
        self.pwrite = pwrite
        self.fsync = fsync
        self.close = close
        self.rename = rename
        self.link = link
        self.unlink = unlink
        self.fsyncDirectory = fsyncDirectory
    }

    package static let posix = VaultFileOperations(
        open: { path, flags, mode in Foundation.open(path, flags, mode) },
        pwrite: { fd, bytes, offset in Foundation.pwrite(fd, bytes.baseAddress, bytes.count, offset) },
        fsync: { fd in Foundation.fsync(fd) },
        close: { fd in Foundation.close(fd) },
        rename: { from, to in Foundation.rename(from, to) },
        link: { from, to in Foundation.link(from, to) },
        unlink: { path in Foundation.unlink(path) },
        fsyncDirectory: { path in
            let fd = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return -1 }
            defer { Foundation.close(fd) }
            return Foundation.fsync(fd)
        })

    private static let installed = Locked(VaultFileOperations.posix)

    /// The operations vaults opened from now on use.
    package static var current: VaultFileOperations {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    /// Writes all of `bytes` at `offset` (retrying short writes and EINTR); false with `errno` set on failure.
    package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: off_t = 0) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, UnsafeRawBufferPointer(rebasing: bytes[done...]), offset + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { errno = EIO }
                return false
            }
            done += n
        }
        return true
    }

    /// Replaces (or creates) the file at `path` with `data` so that a crash or power cut at any moment leaves
    /// either the old file or the whole new one: a private temporary name in the same directory, written and
    /// synced, renamed over `path`, then the directory synced. The file is created 0600.
    package func replaceFile(atPath path: String, with data: Data) throws(KeychainStoreError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let nonce = SodiumRandom.bytes(count: 8).hexString
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(nonce).new").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw KeychainStoreError(.notAvailable, .system(errno: errno)) }
        let written = data.withUnsafeBytes { writeAll(fd, $0) }
        let synced = written && fsync(fd) == 0
        let code = errno
        _ = close(fd)
        guard written, synced else {
            _ = unlink(temporary)
            throw KeychainStoreError(code == ENOSPC ? .diskFull : .io, .system(errno: code))
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            _ = unlink(temporary)
            throw KeychainStoreError(.io, .system(errno: code))
        }
        guard fsyncDirectory(directory) == 0 else { throw KeychainStoreError(.io, .system(errno: errno)) }
    }
}
