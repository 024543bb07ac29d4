import Foundation

/// PEM armour (RFC 7468) read in Swift. Lines end in LF or CRLF. Text outside blocks is skipped.
/// A block is `-----BEGIN <label>-----`, base64 lines, `-----END <label>-----` with the same label; trailing
/// white space on a line is allowed, and so are base64 lines of any length and blank lines. RFC 1421 headers
/// (`Name: value`, as in an encrypted block's `Proc-Type` and `DEK-Info`) make the block encrypted: refused.
enum PEMArmor {
    struct Block {
        let label: String
        /// The decoded contents; nil when the block is malformed, with `problem` saying why.
        let der: Data?
        let problem: String?
    }

    /// The blocks of `text` whose label is in `labels`, in order, at most `limit` of them; other blocks are
    /// skipped without decoding. A BEGIN line without its END line is a malformed block.
    static func blocks(in text: String, labels: Set<String>, limit: Int) -> [Block] {
        var out: [Block] = []
        var current: (label: String, base64: [UInt8], problem: String?)?
        let bytes = Array(text.utf8)
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            guard out.count < limit else { break }
            var line = rawLine
            while let last = line.last, last == 0x20 || last == 0x09 || last == 0x0d { line.removeLast() }
            if var block = current {
                if let label = boundary(line, kind: "BEGIN") {
                    // A new block before this one ended: this one has no END line.
                    if labels.contains(block.label) { out.append(Block(label: block.label, der: nil, problem: "no END line")) }
                    current = (label, [], nil)
                } else if let label = boundary(line, kind: "END") {
                    current = nil
                    guard labels.contains(block.label) else { continue }
                    if label != block.label { block.problem = block.problem ?? "END line names another label" }
                    out.append(decode(block.label, base64: block.base64, problem: block.problem))
                } else if labels.contains(block.label), block.problem == nil {
                    if line.contains(UInt8(ascii: ":")) {
                        block.problem = "encrypted or header-carrying PEM block (Proc-Type/DEK-Info) refused"
                    } else if !line.allSatisfy(isBase64) {
                        block.problem = "invalid base64"
                    } else {
                        block.base64 += line
                    }
                    current = block
                }
            } else if let label = boundary(line, kind: "BEGIN") {
                current = (label, [], nil)
            }
        }
        if let block = current, labels.contains(block.label), out.count < limit {
            out.append(Block(label: block.label, der: nil, problem: "no END line"))
        }
        return out
    }

    /// One PEM block with `label` around `der`: base64 in 64-character lines (RFC 7468 §2).
    static func encode(label: String, der: Data) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n" + base64 + (base64.isEmpty ? "" : "\n") + "-----END \(label)-----\n"
    }

    private static func decode(_ label: String, base64: [UInt8], problem: String?) -> Block {
        if let problem { return Block(label: label, der: nil, problem: problem) }
        guard !base64.isEmpty, let der = Data(base64Encoded: Data(base64)) else {
            return Block(label: label, der: nil, problem: "invalid base64")
        }
        return Block(label: label, der: der, problem: nil)
    }

    /// The label of a `-----BEGIN <label>-----` (or END) line: printable ASCII, no hyphen at its ends.
    private static func boundary(_ line: ArraySlice<UInt8>, kind: String) -> String? {
        let head = Array("-----\(kind) ".utf8), tail = Array("-----".utf8)
        guard line.count > head.count + tail.count, line.starts(with: head), line.suffix(tail.count).elementsEqual(tail) else {
            return nil
        }
        let label = line.dropFirst(head.count).dropLast(tail.count)
        guard label.count <= 64, label.allSatisfy({ (0x20...0x7e).contains($0) }),
              let first = label.first, let last = label.last,
              first != UInt8(ascii: "-"), first != 0x20, last != UInt8(ascii: "-"), last != 0x20 else { return nil }
        return String(decoding: label, as: UTF8.self)
    }

    private static func isBase64(_ c: UInt8) -> Bool {
        (0x41...0x5a).contains(c) || (0x61...0x7a).contains(c) || (0x30...0x39).contains(c)
            || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
    }
}
