import Foundation
import LatchkeyCrypto

/// `latchkey serve --attestation-roots DIR`: the attestation trust anchors of the passkey relying party, read from
/// `DIR/<format>/*.pem` (each file one or more PEM `CERTIFICATE` blocks).
enum AttestationRoots {
    /// The attestation formats that take roots, i.e. the sub-directories DIR may have.
    static let formats = ["packed", "fido-u2f", "apple", "tpm", "android-key", "android-safetynet"]

    /// The roots per format. Files not ending in `.pem` are ignored; a sub-directory that is not a format, a
    /// PEM file that does not parse, or a DIR without any root is an error naming the path.
    static func load(directory: String) throws(AttestationRootsError) -> [String: [Certificate]] {
        let fileManager = FileManager.default
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        guard let entries = try? fileManager.contentsOfDirectory(atPath: base.path) else {
            throw .unreadable(path: base.path)
        }
        var roots: [String: [Certificate]] = [:]
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let folder = base.appendingPathComponent(entry, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            guard formats.contains(entry) else { throw .unknownFormat(path: folder.path) }
            guard let files = try? fileManager.contentsOfDirectory(atPath: folder.path) else {
                throw .unreadable(path: folder.path)
            }
            for file in files.sorted() where file.hasSuffix(".pem") {
                let path = folder.appendingPathComponent(file).path
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .unreadable(path: path) }
                do { roots[entry, default: []] += try Certificate.all(pem: text) } catch {
                    throw .unparsable(path: path, reason: error.localizedDescription)
                }
            }
        }
        guard !roots.isEmpty else { throw .empty(path: base.path) }
        return roots
    }

    /// One line for standard error: `packed 2, apple 1`.
    static func summary(_ roots: [String: [Certificate]]) -> String {
        formats.compactMap { format in roots[format].map { "\(format) \($0.count)" } }.joined(separator: ", ")
    }
}

/// Why `--attestation-roots` could not be used.
enum AttestationRootsError: Error, Sendable, Equatable {
    case unreadable(path: String)
    case unknownFormat(path: String)
    case unparsable(path: String, reason: String)
    case empty(path: String)
}

extension AttestationRootsError: LocalizedError {
    var errorDescription: String? {
        let lang = MessageLanguage.current
        let formats = AttestationRoots.formats.joined(separator: ", ")
        switch self {
        case .unreadable(let path):
            return lang.pick(english: "--attestation-roots: cannot read \(path)", korean: "--attestation-roots: \(path)을(를) 읽을 수 없습니다")
        case .unknownFormat(let path):
            return lang.pick(english: "--attestation-roots: \(path) is not an attestation format (one of \(formats))",
                             korean: "--attestation-roots: \(path)은(는) 증명 형식이 아닙니다 (\(formats) 중 하나)")
        case let .unparsable(path, reason):
            return lang.pick(english: "--attestation-roots: \(path): \(reason)", korean: "--attestation-roots: \(path): \(reason)")
        case .empty(let path):
            return lang.pick(english: "--attestation-roots: no <format>/*.pem certificate under \(path)",
                             korean: "--attestation-roots: \(path) 아래에 <형식>/*.pem 인증서가 없습니다")
        }
    }
}
