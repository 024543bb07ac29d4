import Foundation
import LatchkeyTestSupport
import LatchkeyKeychainCore
import Security
import Testing

/// docs/conformance/attributes.tsv × value-kinds.tsv: every attribute of every class, given as every type its kind
/// takes or refuses, added, read back with kSecReturnAttributes and searched for, on every store.
extension KeychainConformance {
    @Suite struct Attributes {
        @Test(arguments: StoreKind.available) func everyAttributeRow(store: StoreKind) async throws {
            let attributes = try ConformanceTable.load("attributes.tsv")
            let kinds = try ConformanceTable.load("value-kinds.tsv")
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                var checked = 0
                for row in attributes.rows {
                    checked += try AttributeRowCheck(row: row, kinds: kinds, facade: facade).run()
                }
                #expect(checked > attributes.rows.count, "every row ran at least one case")
            }
        }

        @Test(arguments: StoreKind.available) func attributesOfAnotherClassAreNoSuchAttr(store: StoreKind) async throws {
            let attributes = try ConformanceTable.load("attributes.tsv")
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                var classesOf: [String: Set<String>] = [:]
                for row in attributes.rows where row.difference == nil { classesOf[row["raw"], default: []].insert(row["class"]) }
                for (raw, classes) in classesOf.sorted(by: { $0.key < $1.key }) {
                    for cls in AttributeRowCheck.classes where !classes.contains(cls) {
                        var item = AttributeRowCheck.base(cls, without: raw, facade: facade)
                        item[raw] = Sample.string
                        let status = facade.add(item)
                        #expect(status == errSecNoSuchAttr, "\(raw) on \(cls): \(statusName(status)), Apple errSecNoSuchAttr (SecItemDb.c SecDbAttrWithKey)")
                        var query: [String: Any] = ["class": cls, "agrp": facade.group]
                        query[raw] = Sample.string
                        #expect(facade.copy(query).0 == errSecNoSuchAttr, "\(raw) in a \(cls) query")
                    }
                }
            }
        }
    }
}

/// The sample given for each `given` of value-kinds.tsv.
enum Sample {
    static let string = "Conformance Δ"
    static let numericString = "1234"
    static let data = Data("bytes ü".utf8)
    static let number = 42
    static let date = Date(timeIntervalSinceReferenceDate: 1000)

    static func value(_ given: String) -> Any? {
        switch given {
        case "String": string
        case "NumericString": numericString
        case "Data": data
        case "Number": NSNumber(value: number)
        case "Bool": true
        case "Date": date
        case "Accessible": "aku"
        case "Any": "syna"
        default: nil
        }
    }

    /// Another value of the same type (a search for it must not find the item).
    static func other(_ given: String) -> Any? {
        switch given {
        case "String": "Other Δ"
        case "NumericString": "4321"
        case "Data": Data("other".utf8)
        case "Number": NSNumber(value: 43)
        case "Bool": false
        default: nil
        }
    }
}

/// One attribute row, checked on the facade's store.
struct AttributeRowCheck {
    static let classes = ["genp", "inet", "cert", "keys"]

    let row: ConformanceTable.Row
    let kinds: ConformanceTable
    let facade: Facade

    var cls: String { row["class"] }
    var raw: String { row["raw"] }
    var label: String { "\(facade.kind.rawValue) \(cls).\(row["constant"]) (\(raw))" }

    /// An item of `cls` with fresh identifying attributes (two per class, so one remains when `raw` is one of them).
    static func base(_ cls: String, without raw: String, facade: Facade) -> [String: Any] {
        var item: [String: Any] = ["class": cls, "v_Data": Data("secret".utf8), "agrp": facade.group]
        switch cls {
        case "genp": item["svce"] = facade.unique("svc"); item["acct"] = facade.unique("acct")
        case "inet": item["srvr"] = facade.unique("host"); item["acct"] = facade.unique("acct")
        case "cert": item["v_Data"] = Data(facade.unique("der").utf8); item["labl"] = facade.unique("label")
            item["subj"] = Data(facade.unique("subject").utf8)
        default: item["atag"] = Data(facade.unique("tag").utf8); item["klbl"] = Data(facade.unique("klbl").utf8)
        }
        item[raw] = nil
        return item
    }

    /// The query that finds the item `base` made: its class, group and identifying attributes, synchronizable or not.
    static func lookup(_ item: [String: Any]) -> [String: Any] {
        var query: [String: Any] = ["class": item["class"] as Any, "sync": "syna"]
        for key in ["agrp", "svce", "acct", "srvr", "labl", "subj", "atag", "klbl"] where item[key] != nil { query[key] = item[key] }
        return query
    }

    /// Runs every case of the row; returns how many ran.
    func run() throws -> Int {
        switch row.difference {
        case "param":
            var item = Self.base(cls, without: raw, facade: facade)
            item[raw] = Sample.string
            #expect(facade.add(item) == errSecParam, "\(label): the row says Linux answers errSecParam")
            return 1
        case "ignored":
            var item = Self.base(cls, without: raw, facade: facade)
            item[raw] = Sample.string
            #expect(facade.add(item) == errSecSuccess, "\(label): accepted")
            #expect(facade.attributes(Self.lookup(item))?[raw] == nil, "\(label): not kept")
            var query = Self.lookup(item)
            query[raw] = Sample.string
            #expect(facade.copy(query).0 == errSecSuccess, "\(label): not a search criterion")
            _ = facade.delete(Self.lookup(item))
            return 1
        case nil: break
        default:
            Issue.record("\(label): unknown difference \(row["linux"])")
            return 0
        }
        var count = try absent()
        for kindRow in kinds.rows where kindRow["kind"] == row["kind"] {
            count += try given(kindRow)
        }
        return count
    }

    /// The attribute left out: returned as `when_absent` says.
    private func absent() throws -> Int {
        let item = Self.base(cls, without: raw, facade: facade)
        try #require(facade.add(item) == errSecSuccess, "\(label): base item")
        defer { _ = facade.delete(Self.lookup(item)) }
        let attributes = try #require(facade.attributes(Self.lookup(item)), "\(label): base item found")
        let value = attributes[raw]
        switch row["when_absent"] {
        case "0": #expect((value as? NSNumber)?.intValue == 0 && !(value is String), "\(label) absent: \(String(describing: value)), Apple 0")
        case "empty Data": #expect((value as? Data) == Data(), "\(label) absent: \(String(describing: value)), Apple empty Data")
        case "empty String": #expect(value as? String == "", "\(label) absent: \(String(describing: value)), Apple \"\"")
        case "the item's accessibility":
            let control = (value as? SecAccessControl)?.latchkeyAccessControl
            #expect(control?.flags == [] && control?.accessibility.rawValue == attributes["pdmn"] as? String,
                    "\(label) absent: \(String(describing: value)), Apple a SecAccessControl of the item's accessibility")
        case "not returned", "-": #expect(value == nil, "\(label) absent: \(String(describing: value)), Apple none")
        case "default access group": #expect(value as? String == facade.group, "\(label) absent: \(String(describing: value))")
        case "ak": #expect(value as? String == "ak", "\(label) absent: \(String(describing: value)), Apple ak")
        case "time of add": #expect(value is Date, "\(label) absent: \(String(describing: value)), Apple the time of the add")
        default: Issue.record("\(label): unknown when_absent \(row["when_absent"])")
        }
        return 1
    }

    /// The attribute given as `kindRow["given"]`.
    private func given(_ kindRow: ConformanceTable.Row) throws -> Int {
        let given = kindRow["given"]
        let what = "\(label) given \(given)"
        var item = Self.base(cls, without: raw, facade: facade)
        switch given {
        case "SecAccessControl":
            item[raw] = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
        default:
            guard let sample = raw == "agrp" ? groupSample(given) : Sample.value(given) else {
                Issue.record("\(what): no sample"); return 0
            }
            item[raw] = sample
        }
        let expectsParam = kindRow["stored"].hasPrefix("errSecParam")
        let status = facade.add(item)
        if expectsParam {
            #expect(status == errSecParam, "\(what): \(statusName(status)), Apple errSecParam (\(kindRow["source"]))")
            if status == errSecSuccess { _ = facade.delete(Self.lookup(item)) }
            return 1
        }
        #expect(status == errSecSuccess, "\(what): \(statusName(status)), Apple accepts it")
        guard status == errSecSuccess else { return 1 }
        var lookup = Self.lookup(item)
        if raw == "agrp" { lookup["agrp"] = facade.group }
        defer { _ = facade.delete(lookup) }
        let attributes = facade.attributes(lookup)
        #expect(attributes != nil, "\(what): found by its identifying attributes")
        if row["returned"] == "yes", let attributes { checkReturned(attributes[raw], attributes, kindRow, what) }
        if row["searchable"].hasPrefix("yes") { checkSearch(item, lookup, attributes, given, what) }
        return 1
    }

    private func groupSample(_ given: String) -> Any? {
        switch given {
        case "String": facade.group
        case "Data": Data(facade.group.utf8)
        default: Sample.value(given)
        }
    }

    /// The value read back is of the type (and has the value) the kind row says.
    private func checkReturned(_ value: Any?, _ all: [String: Any], _ kindRow: ConformanceTable.Row, _ what: String) {
        let given = kindRow["given"]
        let returned = kindRow["returned"]
        switch (row["kind"], given) {
        case ("Access", _): #expect(value as? String == "aku", "\(what): returned \(String(describing: value))")
        case ("Sync", "Bool"):
            #expect((value as? NSNumber)?.intValue == 1 && value as? Bool == true, "\(what): returned \(String(describing: value)), Apple the number 1")
        case ("Sync", "Any"): #expect((value as? NSNumber)?.intValue == 0, "\(what): added as a local item, returned \(String(describing: value))")
        case ("Date", _):
            let date = value as? Date
            #expect(date != nil && date != Sample.date, "\(what): \(String(describing: value)), Apple the time of the add")
        case ("AccessControl", _):
            #expect(value is SecAccessControl && all["pdmn"] as? String == "ck", "\(what): returned \(String(describing: value)) with pdmn \(String(describing: all["pdmn"]))")
        default:
            let expected = Self.expectedValue(kind: row["kind"], given: given, group: raw == "agrp" ? facade.group : nil)
            let type = returned.components(separatedBy: CharacterSet(charactersIn: " ,(")).first ?? ""
            switch type {
            case "String": #expect(value as? String == expected as? String && !(value is Data), "\(what): returned \(String(describing: value)), Apple the String \(String(describing: expected))")
            case "Data": #expect(value as? Data == expected as? Data && !(value is String), "\(what): returned \(String(describing: value)), Apple the Data \(String(describing: expected))")
            case "Number":
                let number = value as? NSNumber
                #expect(number != nil && number?.intValue == (expected as? Int) && !(value is String) && !(value is Data),
                        "\(what): returned \(String(describing: value)), Apple the Number \(String(describing: expected))")
            default: Issue.record("\(what): unknown returned type \(returned)")
            }
        }
    }

    /// What an attribute of `kind` given as `given` reads back as (by value-kinds.tsv's `stored` column).
    static func expectedValue(kind: String, given: String, group: String?) -> Any? {
        switch (kind, given) {
        case ("Blob", "String"), ("Number", "String"), ("String", "String"): group ?? Sample.string
        case ("Blob", "Data"), ("Data", "Data"): Sample.data
        case ("String", "Data"): group ?? String(decoding: Sample.data, as: UTF8.self)
        case ("Data", "String"): Data(Sample.string.utf8)
        case ("Blob", "Number"), ("Number", "Number"): Sample.number
        case ("Number", "Bool"): 1
        case ("Number", "NumericString"): Int(Sample.numericString)
        case ("Data", "Number"): withUnsafeBytes(of: Int32(Sample.number).littleEndian) { Data($0) }
        default: nil
        }
    }

    /// Found by the value it was given; not by another value of that type; a blob also by the same bytes in the
    /// other form; a number given as a decimal string also by the number.
    private func checkSearch(_ item: [String: Any], _ lookup: [String: Any], _ attributes: [String: Any]?, _ given: String, _ what: String) {
        var query = lookup
        switch (row["kind"], given) {
        case ("Date", _):
            guard let date = attributes?[raw] as? Date else { return }
            query[raw] = date
            #expect(facade.copy(query).0 == errSecSuccess, "\(what): found by its \(raw)")
            query[raw] = Sample.date
            #expect(facade.copy(query).0 == errSecItemNotFound, "\(what): not found by another date")
            return
        case ("AccessControl", _):
            query[raw] = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil)
            #expect(facade.copy(query).0 == errSecSuccess, "\(what): an access control is not a search criterion")
            return
        case ("Sync", "Any"):
            query[raw] = false
            #expect(facade.copy(query).0 == errSecSuccess, "\(what): a local item")
            return
        default: break
        }
        query[raw] = item[raw]
        #expect(facade.copy(query).0 == errSecSuccess, "\(what): found by the value it was given")
        if raw != "agrp", let other = Sample.other(given) {
            query[raw] = other
            #expect(facade.copy(query).0 == errSecItemNotFound, "\(what): not found by another value")
        }
        if row["kind"] == "Blob" && given == "String" {
            query[raw] = Data(Sample.string.utf8)
            #expect(facade.copy(query).0 == errSecSuccess, "\(what): found by the same bytes as Data (matched by bytes)")
        }
        if row["kind"] == "Blob" && given == "Data" {
            query[raw] = String(decoding: Sample.data, as: UTF8.self)
            #expect(facade.copy(query).0 == errSecSuccess, "\(what): found by the same bytes as a String")
        }
        if row["kind"] == "Number" && given == "NumericString" {
            query[raw] = NSNumber(value: Int(Sample.numericString) ?? 0)
            #expect(facade.copy(query).0 == errSecSuccess, "\(what): found by the number")
        }
        if row["kind"] == "Sync" {
            var local = lookup
            local[raw] = nil
            #expect(facade.copy(local.filter { $0.key != "sync" }).0 == errSecItemNotFound, "\(what): a query without sync skips it")
        }
    }
}
