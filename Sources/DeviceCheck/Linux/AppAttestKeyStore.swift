#if os(Linux)
import Foundation
import Glibc
import LatchkeySupport

/// One App Attest key as the service keeps it: the `SecureEnclave` key's blob (useless outside this TPM), whether it
/// was attested, and the counter of its last assertion.
struct AppAttestKeyRecord: Codable, Sendable {
    var version = 1
    var appID: String
    /// `SecureEnclave.P256.Signing.PrivateKey.dataRepresentation`.
    var key: Data
    var attested: Bool
    /// The counter of the last assertion made (0: none yet; the attestation's is 0).
    var counter: UInt32
}

/// Where the service keeps its keys: `<directory>/<App ID>/<key ID in hex>.key` (JSON, 0600, directories 0700), each
/// beside a lock file. A change — attestation, a new counter — is written to a new file, synced, renamed over the old
/// one and the directory synced before the caller gets its result, under an exclusive `flock` shared by every process
/// of the user: an assertion's counter is on disk before the assertion leaves, so a crash can skip a counter but never
/// hand out one twice.
struct AppAttestKeyStore: Sendable {
    let directory: URL

    init(root: URL, appID: String) {
        directory = root.appendingPathComponent(appID, isDirectory: true)
    }

    /// Stores a new key's record.
    func create(_ record: AppAttestKeyRecord, keyID: Data) throws(DCError) {
        try prepareDirectory()
        try withLock(keyID) { () throws(DCError) in
            guard !FileManager.default.fileExists(atPath: url(keyID).path) else {
                throw DCError(.unknownSystemFailure, reason: "a key with this identifier exists")
            }
            try write(record, keyID: keyID)
        }
    }

    /// Runs `body` on the key's record under the key's lock, and stores the record durably when `body` changed it.
    /// `invalidKey` when no such key exists.
    func update<T>(_ keyID: Data, _ body: (inout AppAttestKeyRecord) throws(DCError) -> T) throws(DCError) -> T {
        // No lock file is made for a key that does not exist.
        guard FileManager.default.fileExists(atPath: url(keyID).path) else { throw DCError(.invalidKey) }
        return try withLock(keyID) { () throws(DCError) -> T in
            guard let data = FileManager.default.contents(atPath: url(keyID).path) else { throw DCError(.invalidKey) }
            guard let record = try? JSONDecoder().decode(AppAttestKeyRecord.self, from: data), record.version == 1 else {
                throw DCError(.invalidKey, reason: "the key's record is damaged")
            }
            var changed = record
            let result = try body(&changed)
            if changed.attested != record.attested || changed.counter != record.counter { try write(changed, keyID: keyID) }
            return result
        }
    }

    private func url(_ keyID: Data) -> URL { directory.appendingPathComponent(keyID.hexString + ".key") }

    private func prepareDirectory() throws(DCError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Self.failure("cannot create \(directory.path): \(error.localizedDescription)")
        }
    }

    private func withLock<T>(_ keyID: Data, _ body: () throws(DCError) -> T) throws(DCError) -> T {
        let path = directory.appendingPathComponent(keyID.hexString + ".lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.failure("cannot lock \(path): errno \(errno)") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Writes the record to a new file, syncs it, renames it over the key's file and syncs the directory.
    private func write(_ record: AppAttestKeyRecord, keyID: Data) throws(DCError) {
        guard let data = try? JSONEncoder().encode(record) else { throw Self.failure("cannot encode the key's record") }
        let target = url(keyID).path
        let temporary = target + ".new-\(UUID().uuidString)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot create \(temporary): errno \(errno)") }
        var ok = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, target) == 0 else {
            unlink(temporary)
            throw Self.failure("cannot write \(target): errno \(errno)")
        }
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw Self.failure("cannot sync \(directory.path): errno \(errno)") }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw Self.failure("cannot sync \(directory.path): errno \(errno)") }
    }

    private static func failure(_ reason: String) -> DCError { DCError(.unknownSystemFailure, reason: reason) }
}
#endif
