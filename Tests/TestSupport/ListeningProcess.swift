import Foundation

/// A `latchkey` child that did not print `listening on <URL>` as its first line (`latchkey serve`,
/// `latchkey apple-stand-in`): what it printed instead.
public struct ListeningProcessFailure: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "latchkey did not start: \(output)" }
}

/// Starts `process` with its standard output piped (standard error into the file `errorLog`, else discarded) and
/// waits — on a thread of its own, not one of the cooperative pool's — for the `listening on <URL>` line the server
/// commands print first. Returns that URL; otherwise terminates the process and throws `ListeningProcessFailure`.
public func startListening(_ process: Process, errorLog: URL? = nil) async throws -> URL {
    let pipe = Pipe()
    process.standardOutput = pipe
    if let errorLog, FileManager.default.createFile(atPath: errorLog.path, contents: nil),
       let handle = try? FileHandle(forWritingTo: errorLog) {
        process.standardError = handle
    } else {
        process.standardError = FileHandle.nullDevice
    }
    try process.run()
    let reader = pipe.fileHandleForReading
    let text = try await onThread { () -> String in
        var text = ""
        while !text.contains("\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
          let url = URL(string: String(line.dropFirst("listening on ".count))) else {
        process.terminate()
        _ = try? await onThread { process.waitUntilExit() }  // off the cooperative pool; then its standard error is whole
        let errors = errorLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        throw ListeningProcessFailure(output: text + errors)
    }
    return url
}
