import Foundation

/// One of the conformance tables in docs/conformance (tab-separated, a header line, one row per line), read by path
/// from the repository this test was built from.
struct ConformanceTable: Sendable {
    struct Row: Sendable, CustomStringConvertible {
        let line: Int
        let fields: [String: String]

        subscript(_ column: String) -> String { fields[column] ?? "" }

        /// `same`, or the documented difference's token (`differs:param: why` → "param").
        var difference: String? {
            let linux = self["linux"]
            guard linux.hasPrefix("differs:") else { return nil }
            return String(linux.dropFirst("differs:".count).prefix { $0 != ":" })
        }

        var description: String { "line \(line): " + fields.sorted { $0.key < $1.key }.filter { $0.key != "source" }
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
    }

    let name: String
    let columns: [String]
    let rows: [Row]

    /// docs/conformance, found from this file's path (Tests/KeychainConformanceTests/Support/…).
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/conformance")

    /// The repository root.
    static var repository: URL { directory.deletingLastPathComponent().deletingLastPathComponent() }

    static func load(_ name: String) throws -> ConformanceTable {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try parse(text, name: name)
    }

    static func parse(_ text: String, name: String) throws -> ConformanceTable {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.first else { throw TableError.malformed(name, "empty") }
        let columns = header.components(separatedBy: "\t")
        var rows: [Row] = []
        for (index, line) in lines.dropFirst().enumerated() {
            let cells = line.components(separatedBy: "\t")
            guard cells.count == columns.count else {
                throw TableError.malformed(name, "line \(index + 2) has \(cells.count) cells, the header \(columns.count)")
            }
            rows.append(Row(line: index + 2, fields: Dictionary(uniqueKeysWithValues: zip(columns, cells))))
        }
        return ConformanceTable(name: name, columns: columns, rows: rows)
    }

    enum TableError: Error, CustomStringConvertible {
        case malformed(String, String)
        var description: String {
            switch self { case let .malformed(name, why): "docs/conformance/\(name): \(why)" }
        }
    }
}
