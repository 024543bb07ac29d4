import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small JSON state file shared by several processes: mode 0600 in a 0700 directory, every
/// read-modify-write under an exclusive `flock` on a sibling `.lock` file, replaced atomically (rename).
package struct LockedStateFile<Value: Codable & Sendable>: Sendable {
    package let url: URL
    package let makeInitial: @Sendable () -> Value

    package init(url: URL, makeInitial: @escaping @Sendable () -> Value) {
        self.url = url
        self.makeInitial = makeInitial
    }

    /// The current value (created and saved from `makeInitial` when the file does not exist yet).
    package func read() throws(StateFileError) -> Value {
        try update { _ in }.value
    }

    /// Runs `body` on the value under the exclusive lock and saves the result when it changed.
    @discardableResult
    package func update<R>(_ body: (inout Value) -> R) throws(StateFileError) -> (value: Value, result: R) {
        let directory = url.deletingLastPathComponent()
        try Self.makeDirectory(directory)
        let lockPath = url.path + ".lock"
        let lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else { throw .cannotOpen(path: lockPath, errno: errno) }
        defer { close(lockFD) }
        while flock(lockFD, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .cannotLock(path: lockPath, errno: errno) }
        }
        defer { _ = flock(lockFD, LOCK_UN) }

        let original: Value?
        var value: Value
        if let data = FileManager.default.contents(atPath: url.path) {
            guard let decoded = try? Self.decoder.decode(Value.self, from: data) else { throw .corrupt(path: url.path) }
            original = decoded
            value = decoded
        } else {
            original = nil
            value = makeInitial()
        }
        let result = body(&value)
        let encoded = (try? Self.encoder.encode(value)) ?? Data()
        let unchanged = original.flatMap { try? Self.encoder.encode($0) } == encoded
        if !unchanged { try replaceContents(with: encoded) }
        return (value, result)
    }

    private func replaceContents(with data: Data) throws(StateFileError) {
        let temporary = url.path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotWrite(path: temporary, errno: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(fd, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fchmod(fd, 0o600) != 0 || fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, url.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .cannotWrite(path: url.path, errno: failure)
        }
    }

    private static func makeDirectory(_ directory: URL) throws(StateFileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotOpen(path: directory.path, errno: EACCES)
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.dataDecodingStrategy = .base64
        return decoder
    }
}
