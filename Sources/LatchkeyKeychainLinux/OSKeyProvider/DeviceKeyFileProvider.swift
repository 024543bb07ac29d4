import Foundation
import LatchkeyKeychainCore
import CryptoKit
import LatchkeyOpenSSL
import LatchkeySupport

/// The key protection used where no login keyring runs (CI runners, containers, servers): one random
/// 32-byte key per user in a file (`$XDG_DATA_HOME/latchkey/device.key`, mode 0600 in a 0700 directory),
/// created on first use. Each vault's wrapping key is derived from it with HKDF-SHA256 (salt: the vault id).
///
/// This is the protection class of Chromium's and GNOME's "basic" password stores and of the iOS
/// Simulator's keychain: the vault file alone reveals nothing, but anyone who can read the user's files
/// (the user, root, a backup holding both files) can open it. Use the login keyring or a passphrase where
/// that is not enough.
///
/// The file is never replaced: a file with the wrong size, owner or permissions is refused, and a
/// missing file is only created for a new vault (an existing vault then fails with `.noVaultKey`).
public struct DeviceKeyFileProvider: VaultKeyProvider {
    /// The key file.
    public let url: URL

    /// Uses the key file at `url` (default: ``defaultURL(environment:)``).
    public init(url: URL = DeviceKeyFileProvider.defaultURL()) {
        self.url = url
    }

    /// `LATCHKEY_DEVICE_KEY_PATH`, else `device.key` next to the default vault
    /// (`$XDG_DATA_HOME/latchkey/device.key`, falling back to `~/.local/share/latchkey/device.key`).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["LATCHKEY_DEVICE_KEY_PATH"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return VaultFile.defaultURL(environment: environment).deletingLastPathComponent().appendingPathComponent("device.key")
    }

    public var name: String { "device-key-file" }
    public var protection: VaultProtection { .deviceKey }

    static let keyByteCount = 32
    static let derivationInfo = Data("latchkey.device-key.v1.vault-wrap".utf8)

    public func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        guard let deviceKey = try loadKey(create: create) else { return nil }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: deviceKey, salt: vaultID, info: Self.derivationInfo,
                                      outputByteCount: 32)
    }

    /// Does nothing: the device key is shared by every vault of the user.
    public func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {}

    /// Whether the key file exists (it is not read).
    public var exists: Bool { FileManager.default.fileExists(atPath: url.path) }

    /// The device key, creating the file first when it is missing and `create` is true.
    func loadKey(create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        if let key = try readKeyFile() { return key }
        guard create else { return nil }
        try createFile()
        guard let key = try readKeyFile() else { throw failure(.missing) }
        return key
    }

    /// Reads and checks the file; nil when it does not exist.
    private func readKeyFile() throws(KeychainStoreError) -> SymmetricKey? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw failure(.notRegularFile) }
            throw KeychainStoreError(.notAvailable, .system(errno: code))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw KeychainStoreError(.notAvailable, .system(errno: errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw failure(.notRegularFile) }
        guard st.st_uid == geteuid() else { throw failure(.wrongOwner) }
        guard st.st_mode & 0o077 == 0 else { throw failure(.readableByOthers(mode: UInt32(st.st_mode & 0o777))) }
        guard st.st_size == off_t(Self.keyByteCount) else { throw failure(.wrongSize) }
        var bytes = [UInt8](repeating: 0, count: Self.keyByteCount + 1)
        defer { bytes.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        let count = bytes.withUnsafeMutableBytes { readFully(fd, $0) }
        guard count == Self.keyByteCount else { throw failure(.wrongSize) }
        return bytes.withUnsafeBytes { SymmetricKey(data: UnsafeRawBufferPointer(rebasing: $0.prefix(Self.keyByteCount))) }
    }

    /// Creates the file atomically: the key is written to a private temporary name in the same directory,
    /// synced, and linked into place; when another process linked first, its key is kept.
    private func createFile() throws(KeychainStoreError) {
        let files = VaultFileOperations.current
        let directory = url.deletingLastPathComponent()
        try VaultFile.prepareDirectory(directory.path)
        let nonce = SodiumRandom.bytes(count: 8).hexString
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(nonce).new").path
        let fd = files.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw KeychainStoreError(.notAvailable, .system(errno: errno)) }
        defer { _ = files.unlink(temporary) }
        var key = SodiumRandom.bytes(count: Self.keyByteCount)
        defer { key.resetBytes(in: 0..<key.count) }
        let written = key.withUnsafeBytes { files.writeAll(fd, $0) }
        let synced = written && files.fsync(fd) == 0
        let writeErrno = errno
        _ = files.close(fd)
        guard written, synced else {
            throw KeychainStoreError(writeErrno == ENOSPC ? .diskFull : .io, .system(errno: writeErrno))
        }
        if files.link(temporary, url.path) != 0, errno != EEXIST {
            throw KeychainStoreError(.notAvailable, .system(errno: errno))
        }
        _ = files.fsyncDirectory(directory.path)
    }

    private func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        var total = 0
        while total < buffer.count {
            let n = read(fd, buffer.baseAddress! + total, buffer.count - total)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            total += n
        }
        return total
    }

    private func failure(_ problem: KeychainStoreError.DeviceKeyFileProblem) -> KeychainStoreError {
        KeychainStoreError(.notAvailable, .deviceKeyFile(path: url.path, problem))
    }
}
