import Foundation

/// A node of the YAML subset docs/openapi.yaml is written in (see the comment at its top): maps, lists and scalars.
indirect enum YAMLNode: Sendable, Equatable {
    case map([(key: String, value: YAMLNode)])
    case list([YAMLNode])
    case scalar(String)

    static func == (a: YAMLNode, b: YAMLNode) -> Bool {
        switch (a, b) {
        case let (.map(x), .map(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.list(x), .list(y)): x == y
        case let (.scalar(x), .scalar(y)): x == y
        default: false
        }
    }

    subscript(_ key: String) -> YAMLNode? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var entries: [(key: String, value: YAMLNode)] {
        if case .map(let entries) = self { return entries }
        return []
    }

    var items: [YAMLNode] {
        if case .list(let items) = self { return items }
        return []
    }

    var text: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    var int: Int? { text.flatMap { Int($0) } }
}

enum YAMLSubsetError: Error, CustomStringConvertible {
    case badLine(Int, String)
    var description: String {
        switch self { case .badLine(let number, let why): "openapi.yaml line \(number): \(why)" }
    }
}

/// Reads the YAML subset: two-space indentation, `key: value` and `key:` with a nested block, `- item` lists (of
/// scalars, or of maps whose first key is on the dash line), single- or double-quoted scalars, `[]` and `{}`.
enum YAMLSubset {
    struct Line {
        let number: Int
        let indent: Int
        let text: Substring
    }

    static func parse(_ source: String) throws -> YAMLNode {
        var lines: [Line] = []
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.contains("\t") { throw YAMLSubsetError.badLine(index + 1, "tab character") }
            let text = raw.drop { $0 == " " }
            if text.isEmpty || text.hasPrefix("#") { continue }
            let indent = raw.count - text.count
            guard indent % 2 == 0 else { throw YAMLSubsetError.badLine(index + 1, "odd indentation") }
            lines.append(Line(number: index + 1, indent: indent, text: text))
        }
        var position = 0
        let node = try block(lines, &position, indent: 0)
        if position < lines.count { throw YAMLSubsetError.badLine(lines[position].number, "unexpected indentation") }
        return node
    }

    static func block(_ lines: [Line], _ position: inout Int, indent: Int) throws -> YAMLNode {
        guard position < lines.count else { return .scalar("") }
        if lines[position].text.hasPrefix("- ") || lines[position].text == "-" {
            var items: [YAMLNode] = []
            while position < lines.count, lines[position].indent == indent, lines[position].text.hasPrefix("- ") {
                let line = lines[position]
                let content = line.text.dropFirst(2)
                if let (key, value) = try keyValue(content, line: line.number) {
                    // A map item: its first entry is on the dash line, the rest at indent + 2.
                    position += 1
                    var entries = [(key: key, value: try value ?? nested(lines, &position, under: indent + 2))]
                    if position < lines.count, lines[position].indent == indent + 2 {
                        entries += try block(lines, &position, indent: indent + 2).entries
                    }
                    items.append(.map(entries))
                } else {
                    items.append(scalar(content))
                    position += 1
                }
            }
            return .list(items)
        }
        var entries: [(key: String, value: YAMLNode)] = []
        while position < lines.count, lines[position].indent == indent {
            let line = lines[position]
            guard let (key, value) = try keyValue(line.text, line: line.number) else {
                throw YAMLSubsetError.badLine(line.number, "expected `key:`")
            }
            position += 1
            entries.append((key, try value ?? nested(lines, &position, under: indent)))
        }
        return .map(entries)
    }

    /// The block under a `key:` line (deeper than `indent`), or an empty scalar when there is none.
    static func nested(_ lines: [Line], _ position: inout Int, under indent: Int) throws -> YAMLNode {
        guard position < lines.count, lines[position].indent > indent else { return .scalar("") }
        return try block(lines, &position, indent: lines[position].indent)
    }

    /// `key: value` → (key, scalar); `key:` → (key, nil); not a key → nil.
    static func keyValue(_ text: Substring, line: Int) throws -> (String, YAMLNode?)? {
        var keyEnd: Substring.Index
        if let quote = text.first, quote == "\"" || quote == "'" {
            guard let close = text.dropFirst().firstIndex(of: quote) else { throw YAMLSubsetError.badLine(line, "open quote") }
            keyEnd = text.index(after: close)
            guard keyEnd < text.endIndex, text[keyEnd] == ":" else { return nil }
        } else {
            guard let colon = text.indices.first(where: { text[$0] == ":" && (text.index(after: $0) == text.endIndex
                                                                               || text[text.index(after: $0)] == " ") })
            else { return nil }
            keyEnd = colon
        }
        let key = unquote(text[..<keyEnd])
        let rest = text[text.index(after: keyEnd)...].drop { $0 == " " }
        return (key, rest.isEmpty ? nil : scalar(rest))
    }

    static func scalar(_ text: Substring) -> YAMLNode {
        switch text {
        case "[]": .list([])
        case "{}": .map([])
        default: .scalar(unquote(text))
        }
    }

    static func unquote(_ text: Substring) -> String {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") {
            return String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            return String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\\", with: "\\")
        }
        return value
    }
}

/// One documented operation of docs/openapi.yaml.
struct OpenAPIOperation: Sendable {
    var method: String
    var path: String
    var node: YAMLNode

    var operationID: String { node["operationId"]?.text ?? "" }
    var statuses: Set<Int> { Set(node["responses"]?.entries.compactMap { Int($0.key) } ?? []) }
    var testBody: String? { node["x-test-body"]?.text }
    var testContentType: String? { node["x-test-content-type"]?.text }
    var requestMediaTypes: [String] { node["requestBody"]?["content"]?.entries.map(\.key) ?? [] }
    var takesBody: Bool { node["requestBody"] != nil }
    var usesBearer: Bool { node["security"]?.items.contains { $0["bearer"] != nil } ?? false }

    /// The path as the router writes it (`/v1/passkeys/{id}` → `/v1/passkeys/:id`).
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : part
        }.joined(separator: "/")
    }

    /// A concrete path to request (`{id}` → `test`).
    var samplePath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? "test" : String(part)
        }.joined(separator: "/")
    }

    /// The names in `{…}` segments of the path.
    var pathParameterNames: Set<String> {
        Set(path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) })
    }
}

/// docs/openapi.yaml, read with `YAMLSubset`, with `$ref`s into `components` resolved on demand.
struct OpenAPIDocument: Sendable {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
    let root: YAMLNode

    init(_ text: String) throws { root = try YAMLSubset.parse(text) }

    static func load() throws -> OpenAPIDocument {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml")
        return try OpenAPIDocument(String(contentsOf: url, encoding: .utf8))
    }

    var operations: [OpenAPIOperation] {
        (root["paths"]?.entries ?? []).flatMap { path, item in
            item.entries.filter { Self.methods.contains($0.key) }.map {
                OpenAPIOperation(method: $0.key.uppercased(), path: path, node: $0.value)
            }
        }
    }

    /// `node` with a `$ref` (`#/components/...`) followed, repeatedly.
    func resolve(_ node: YAMLNode) -> YAMLNode {
        var current = node
        for _ in 0..<8 {
            guard let reference = current["$ref"]?.text, reference.hasPrefix("#/") else { return current }
            var target: YAMLNode? = root
            for part in reference.dropFirst(2).split(separator: "/") { target = target?[String(part)] }
            guard let found = target else { return current }
            current = found
        }
        return current
    }

    /// A schema of `components.schemas`.
    func schema(_ name: String) -> YAMLNode? { root["components"]?["schemas"]?[name] }
}
