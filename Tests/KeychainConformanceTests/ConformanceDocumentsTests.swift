import Foundation
import Testing

/// The documents made from the tables: docs/conformance/access-control-combinations.tsv (every flag combination,
/// from the rules of access-control.tsv) and the conformance section of docs/COMPATIBILITY.md. The test fails when
/// either differs from what the tables give; `scripts/conformance-docs.sh` (LATCHKEY_WRITE_CONFORMANCE=1) rewrites them.
extension KeychainConformance {
    @Suite struct Documents {
        static let write = ProcessInfo.processInfo.environment["LATCHKEY_WRITE_CONFORMANCE"] == "1"

        @Test func accessControlCombinationsFollowTheRules() throws {
            let rules = try ConformanceTable.load("access-control.tsv")
            try check(ConformanceTable.directory.appendingPathComponent("access-control-combinations.tsv"),
                      ConformanceDocuments.combinations(try AccessControlRules(rules), rules))
        }

        @Test func compatibilityDocumentHasTheTables() throws {
            let url = ConformanceTable.repository.appendingPathComponent("docs/COMPATIBILITY.md")
            let document = try String(contentsOf: url, encoding: .utf8)
            let begin = try #require(document.range(of: ConformanceDocuments.begin), "docs/COMPATIBILITY.md has no \(ConformanceDocuments.begin)")
            let end = try #require(document.range(of: ConformanceDocuments.end), "docs/COMPATIBILITY.md has no \(ConformanceDocuments.end)")
            let section = try ConformanceDocuments.section()
            let rewritten = String(document[..<begin.lowerBound]) + section + String(document[end.upperBound...])
            try check(url, rewritten)
        }

        /// Every row cites Apple's documentation or headers, and every table parses.
        @Test func everyRowHasASource() throws {
            for name in ConformanceDocuments.tables {
                let table = try ConformanceTable.load(name)
                #expect(!table.rows.isEmpty, "\(name) is empty")
                for row in table.rows {
                    let source = row["source"]
                    #expect(source.contains("developer.apple.com") || source.contains("Security-61901"),
                            "\(name) \(row): no Apple source")
                    let linux = row["linux"]
                    #expect(linux == "same" || linux.hasPrefix("differs:"), "\(name) \(row): linux is neither same nor differs:")
                }
            }
        }

        private func check(_ url: URL, _ expected: String) throws {
            let current = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if current == expected { return }
            if Self.write {
                try expected.write(to: url, atomically: true, encoding: .utf8)
                return
            }
            Issue.record("\(url.lastPathComponent) is not what docs/conformance gives: run scripts/conformance-docs.sh")
        }
    }
}

/// Renders the generated documents.
enum ConformanceDocuments {
    static let tables = ["attributes.tsv", "value-kinds.tsv", "access-control.tsv", "lookups.tsv", "access-control-combinations.tsv"]
    static let begin = "<!-- conformance:begin -->"
    static let end = "<!-- conformance:end -->"

    /// One row per combination of the nine flags.
    static func combinations(_ rules: AccessControlRules, _ table: ConformanceTable) -> String {
        let source = "Security-61901 OSX/sec/Security/SecAccessControl.m SecAccessControlCreateWithFlags; Security-61901 keychain/headers/SecAccessControl.h (rules: access-control.tsv)"
        var lines = ["flags\traw\tcreate\trelease\tapplication_password\tlinux\tsource"]
        for raw in 0..<(1 << AccessControlRules.flags.count) {
            let names = AccessControlRules.names(raw)
            let ordered = AccessControlRules.flags.map(\.name).filter(names.contains)
            let value = AccessControlRules.flags(raw).rawValue
            let create = rules.creation(names)
            let release = create == "ok" ? rules.release(names) : "-"
            let password = create == "ok" && names.contains("applicationPassword") ? "also needed" : "-"
            let linux = create == "ok" && release.contains("companion") ? rules.companionDifference(table) : "same"
            lines.append([ordered.isEmpty ? "none" : ordered.joined(separator: " | "), String(value), create, release, password,
                          linux, source].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The section of docs/COMPATIBILITY.md between the markers.
    static func section() throws -> String {
        let attributes = try ConformanceTable.load("attributes.tsv")
        let kinds = try ConformanceTable.load("value-kinds.tsv")
        let access = try ConformanceTable.load("access-control.tsv")
        let lookups = try ConformanceTable.load("lookups.tsv")
        let combinations = try ConformanceTable.load("access-control-combinations.tsv")
        var out: [String] = [begin]
        out.append("<!-- Generated from docs/conformance/*.tsv by Tests/KeychainConformanceTests; edit the tables, then run scripts/conformance-docs.sh. -->")
        out.append("")
        out.append("## Conformance table")
        out.append("")
        out.append("The Keychain Services behaviour the Linux `Security` module follows is stated as data in `docs/conformance/` "
            + "(tab-separated, one row per case, each row citing Apple's documentation, headers or open-source Security code), "
            + "and `Tests/KeychainConformanceTests` runs every row against each Linux store — the vault, the Secret Service and "
            + "memory — through the `SecItem…` functions (`make test`). A row whose `linux` column is not `same` states the "
            + "documented difference and why; the suite checks that difference instead.")
        out.append("")
        out.append("| Table | Rows | What a row says |")
        out.append("|---|---|---|")
        out.append("| `attributes.tsv` | \(attributes.rows.count) | a `kSecAttr…` key in an item class: its kind, primary key, searchable, returned, returned when absent |")
        out.append("| `value-kinds.tsv` | \(kinds.rows.count) | what each kind does with a value of each type (kept, converted, errSecParam) and returns |")
        out.append("| `access-control.tsv` | \(access.rows.count) | the rules of `SecAccessControlCreateWithFlags` and of releasing an item, and the errors |")
        out.append("| `access-control-combinations.tsv` | \(combinations.rows.count) | every combination of the nine flags: created or not, what releases the item |")
        out.append("| `lookups.tsv` | \(lookups.rows.count) | persistent references, `kSecMatchLimit`, `kSecAttrSynchronizableAny`, `kSecMatchItemList`, `kSecUseDataProtectionKeychain`, the insensitive-matching keys |")
        out.append("")
        out.append("### Attributes by class")
        out.append("")
        out.append("The kind decides the value types taken and returned (`value-kinds.tsv`); **pk** marks primary-key attributes. "
            + "A key not listed for a class is `errSecNoSuchAttr` in that class.")
        out.append("")
        let classes = ["genp", "inet", "cert", "keys"]
        out.append("| Key | " + classes.joined(separator: " | ") + " |")
        out.append("|---|" + classes.map { _ in "---" }.joined(separator: "|") + "|")
        var order: [String] = []
        var cells: [String: [String: String]] = [:]
        for row in attributes.rows {
            let key = "`\(row["constant"])` (`\(row["raw"])`)"
            if cells[key] == nil { order.append(key) }
            let pk = row["primary_key"] == "yes" ? ", pk" : ""
            cells[key, default: [:]][row["class"]] = row.difference.map { "differs (\($0))" } ?? row["kind"] + pk
        }
        for key in order {
            out.append("| \(key) | " + classes.map { cells[key]?[$0] ?? "—" }.joined(separator: " | ") + " |")
        }
        out.append("")
        out.append("### Values by kind")
        out.append("")
        out.append("| Kind | Given | Kept as | Returned as |")
        out.append("|---|---|---|---|")
        for row in kinds.rows { out.append("| \(row["kind"]) | \(row["given"]) | \(row["stored"]) | \(row["returned"]) |") }
        out.append("")
        out.append("### Access control")
        out.append("")
        out.append("| Rule | Case | Outcome |")
        out.append("|---|---|---|")
        for row in access.rows { out.append("| \(row["section"]) | \(row["item"]) | \(row["value"]) |") }
        out.append("")
        out.append("### Lookups")
        out.append("")
        out.append("| Case | Call | Apple |")
        out.append("|---|---|---|")
        for row in lookups.rows { out.append("| `\(row["id"])`: \(row["case"]) | \(row["call"]) | \(row["apple"]) |") }
        out.append("")
        out.append("### Documented differences (rows whose `linux` is not `same`)")
        out.append("")
        for (name, table, label) in [("attributes.tsv", attributes, "constant"), ("access-control.tsv", access, "item"),
                                     ("lookups.tsv", lookups, "id")] {
            var seen = Set<String>()
            for row in table.rows where row.difference != nil {
                let text = "- `\(name)` \(row[label]): \(row["linux"].dropFirst("differs:".count))"
                if seen.insert(row[label]).inserted { out.append(text) }
            }
        }
        out.append(end)
        return out.joined(separator: "\n")
    }
}

extension AccessControlRules {
    /// What releases an item of a created combination, in words.
    func release(_ names: Set<String>) -> String {
        let alternatives = describedAlternatives(names)
        if alternatives.isEmpty { return "nothing (no constraint)" }
        if alternatives.count == 1 { return "all of: " + alternatives[0].joined(separator: ", ") }
        return "any one of: " + alternatives.map { $0.joined(separator: ", ") }.joined(separator: "; ")
    }

    /// The companion row's `linux` text.
    func companionDifference(_ table: ConformanceTable) -> String {
        table.rows.first { $0["section"] == "constraint" && $0["item"] == "companion" }?["linux"] ?? "differs:never"
    }
}
