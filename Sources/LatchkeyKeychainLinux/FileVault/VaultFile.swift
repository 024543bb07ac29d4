import Foundation
import LatchkeyKeychainCore

/// Where vault files live and how they are created: directory 0700, file 0600, never replaced.
public enum VaultFile {
    /// `$XDG_DATA_HOME/latchkey/<name>.vault`, falling back to `~/.local/share/latchkey/<name>.vault`.
    public static func defaultURL(name: String = "default",
                                  environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("latchkey", isDirectory: true).appendingPathComponent("\(name).vault")
    }

    /// Makes sure the directory exists (created 0700) and the file exists (created empty, 0600).
    /// An existing file is never truncated or replaced; its mode is tightened to 0600.
    static func prepare(_ url: URL) throws(KeychainStoreError) {
        try prepareDirectory(url.deletingLastPathComponent().path)
        let files = VaultFileOperations.current
        let fd = files.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw KeychainStoreError(.notAvailable, .system(errno: errno)) }
        defer { _ = files.close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) != S_IFREG { throw KeychainStoreError(.notAvailable, .system(errno: EINVAL)) }
            if st.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
        }
    }

    /// Makes sure the directory `dir` exists, creating it (and missing parents) with mode 0700.
    static func prepareDirectory(_ dir: String) throws(KeychainStoreError) {
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw KeychainStoreError(.notAvailable, .system(errno: EACCES))
            }
            chmod(dir, 0o700)
        } else if !isDir.boolValue {
            throw KeychainStoreError(.notAvailable, .system(errno: ENOTDIR))
        }
    }
}
