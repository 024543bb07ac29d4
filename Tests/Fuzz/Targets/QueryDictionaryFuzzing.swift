import Foundation
import LatchkeyKeychain

/// SecItem dictionaries from untrusted callers: the input builds a `[String: Any]` (known and arbitrary keys;
/// strings, integers of every width, doubles, booleans, NSNumber/NSString/NSData/NSDate, byte arrays, nested
/// arrays and dictionaries, access-control values) that goes through `QueryDictionary.query`, `addRequest`,
/// `changes` and the result decoders. Properties: a parsed query, add request or change set written back
/// as a dictionary parses to the same thing.
enum QueryDictionaryFuzzing {
    static let keys: [String] = AttributeKey.allCases.map(\.rawValue) + [
        QueryKeys.itemClass, QueryKeys.accessible, QueryKeys.accessControl, QueryKeys.synchronizable,
        QueryKeys.creationDate, QueryKeys.modificationDate, QueryKeys.valueData, QueryKeys.valueRef,
        QueryKeys.valuePersistentRef, QueryKeys.returnData, QueryKeys.returnAttributes, QueryKeys.returnRef,
        QueryKeys.returnPersistentRef, QueryKeys.matchLimit, QueryKeys.useAuthenticationContext,
        QueryKeys.useAuthenticationUI, QueryKeys.useOperationPrompt, QueryKeys.useNoAuthenticationUI,
    ] + QueryKeys.ignored.sorted()

    static let strings: [String] = ItemClass.allCases.map(\.rawValue) + Accessibility.allCases.map(\.rawValue) + [
        "dk", "dku", QueryKeys.matchLimitOne, QueryKeys.matchLimitAll, QueryKeys.synchronizableAny,
        "u_AuthUIA", "u_AuthUIF", "u_AuthUIS", "73", "42", "1", "0", "-1", "9223372036854775808", "",
    ]

    /// Value kinds, in the order of the selector byte.
    enum Kind: UInt8, CaseIterable {
        case string, knownString, int, smallInt, int32, uint32, uint, double, bool, data, bytes
        case numberInt, numberDouble, numberBool, nsString, nsData, date, array, dictionary, accessControl, null
    }

    struct Builder {
        var input: FuzzInput

        mutating func dictionary(depth: Int) -> [String: Any] {
            var d: [String: Any] = [:]
            let count = Int(input.byte() % 16)
            for _ in 0..<count {
                let selector = Int(input.byte())
                let key = selector < QueryDictionaryFuzzing.keys.count ? QueryDictionaryFuzzing.keys[selector] : input.string()
                d[key] = value(depth: depth)
            }
            return d
        }

        mutating func value(depth: Int) -> Any {
            let kind = Kind(rawValue: input.byte() % UInt8(Kind.allCases.count)) ?? .null
            switch kind {
            case .string: return input.string()
            case .knownString: return QueryDictionaryFuzzing.strings[Int(input.byte()) % QueryDictionaryFuzzing.strings.count]
            case .int: return Int(truncatingIfNeeded: input.uint64())
            case .smallInt: return Int64(Int8(bitPattern: input.byte()))
            case .int32: return Int32(truncatingIfNeeded: input.uint64())
            case .uint32: return UInt32(truncatingIfNeeded: input.uint64())
            case .uint: return UInt(truncatingIfNeeded: input.uint64())
            case .double: return Double(bitPattern: input.uint64())
            case .bool: return input.byte() & 1 == 1
            case .data: return input.data()
            case .bytes: return [UInt8](input.data())
            case .numberInt: return NSNumber(value: Int(truncatingIfNeeded: input.uint64()))
            case .numberDouble: return NSNumber(value: Double(bitPattern: input.uint64()))
            case .numberBool: return NSNumber(value: input.byte() & 1 == 1)
            case .nsString: return NSString(string: input.string())
            case .nsData: return NSData(data: input.data())
            case .date: return Date(timeIntervalSinceReferenceDate: Double(bitPattern: input.uint64()))
            case .array:
                guard depth < 3 else { return [Any]() }
                return (0..<Int(input.byte() % 4)).map { _ in value(depth: depth + 1) }
            case .dictionary:
                guard depth < 3 else { return [String: Any]() }
                return dictionary(depth: depth + 1)
            case .accessControl:
                let levels = Accessibility.allCases
                return AccessControl(accessibility: levels[Int(input.byte()) % levels.count],
                                     flags: AccessControlFlags(rawValue: UInt(truncatingIfNeeded: input.uint64())))
            case .null: return NSNull()
            }
        }
    }

    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        var builder = Builder(input: FuzzInput(data))
        let dict = builder.dictionary(depth: 0)
        let resultShape = builder.value(depth: 1)

        if let query = try? QueryDictionary.query(dict) {
            let written = QueryDictionary.queryDictionary(query)
            let again: ItemQuery
            do { again = try QueryDictionary.query(written) } catch {
                throw FuzzPropertyViolation(.queryDictionary, "a parsed query written back is refused: \(error)")
            }
            try require(same(query, again), .queryDictionary, "query → dictionary → query changes the query")
            _ = try? QueryDictionary.results(from: resultShape, for: query)
            _ = try? QueryDictionary.results(from: [resultShape, dict], for: query)
            _ = try? QueryDictionary.results(from: dict, for: query)
        }
        if let request = try? QueryDictionary.addRequest(dict) {
            let written = QueryDictionary.addDictionary(request.item)
            let again: QueryDictionary.AddRequest
            do { again = try QueryDictionary.addRequest(written) } catch {
                throw FuzzPropertyViolation(.queryDictionary, "a parsed add request written back is refused: \(error)")
            }
            try require(again.item == request.item, .queryDictionary, "add → dictionary → add changes the item")
        }
        for itemClass in ItemClass.allCases {
            guard let changes = try? QueryDictionary.changes(dict, for: itemClass) else { continue }
            let again = try? QueryDictionary.changes(QueryDictionary.changesDictionary(changes), for: itemClass)
            try require(again == changes, .queryDictionary, "changes → dictionary → changes differ")
        }
        for itemClass in ItemClass.allCases {
            let attributes = QueryDictionary.attributes(from: dict, itemClass: itemClass)
            _ = QueryDictionary.dictionary(attributes)
        }
    }

    /// Every part of a query that a dictionary carries (the authentication context is an object, not compared).
    static func same(_ a: ItemQuery, _ b: ItemQuery) -> Bool {
        a.itemClass == b.itemClass && a.filters == b.filters && a.synchronizable == b.synchronizable
            && a.accessibility == b.accessibility && a.persistentReference == b.persistentReference
            && a.matchLimit == b.matchLimit && a.returnData == b.returnData && a.returnAttributes == b.returnAttributes
            && a.returnReference == b.returnReference && a.returnPersistentReference == b.returnPersistentReference
            && a.authenticationUI == b.authenticationUI && a.operationPrompt == b.operationPrompt
    }

    static func seeds() -> [Data] {
        func key(_ name: String) -> UInt8 { UInt8(keys.firstIndex(of: name) ?? 0) }
        func known(_ text: String) -> [UInt8] { [Kind.knownString.rawValue, UInt8(strings.firstIndex(of: text) ?? 0)] }
        var seeds: [Data] = []
        // {class: genp, svce: "service", acct: "account", v_Data: secret, r_Data: true, m_Limit: m_LimitAll}
        var w = FuzzInputWriter()
        w.byte(6)
        w.byte(key("class")); known("genp").forEach { w.byte($0) }
        w.byte(key("svce")); w.byte(Kind.string.rawValue); w.string("service")
        w.byte(key("acct")); w.byte(Kind.nsString.rawValue); w.string("account")
        w.byte(key("v_Data")); w.byte(Kind.data.rawValue); w.data(Data("secret".utf8))
        w.byte(key("r_Data")); w.byte(Kind.numberBool.rawValue); w.byte(1)
        w.byte(key("m_Limit")); known(QueryKeys.matchLimitAll).forEach { w.byte($0) }
        w.byte(Kind.data.rawValue); w.data(Data("result".utf8))
        seeds.append(w.data)
        // {class: inet, srvr, ptcl-free port as Int32, pdmn: ck, sync: syna, r_Attributes: true}
        w = FuzzInputWriter()
        w.byte(6)
        w.byte(key("class")); known("inet").forEach { w.byte($0) }
        w.byte(key("srvr")); w.byte(Kind.string.rawValue); w.string("example.com")
        w.byte(key("port")); w.byte(Kind.int32.rawValue); w.uint64(443)
        w.byte(key("pdmn")); known("ck").forEach { w.byte($0) }
        w.byte(key("sync")); known(QueryKeys.synchronizableAny).forEach { w.byte($0) }
        w.byte(key("r_Attributes")); w.byte(Kind.bool.rawValue); w.byte(1)
        w.byte(Kind.dictionary.rawValue); w.byte(1); w.byte(key("labl")); w.byte(Kind.string.rawValue); w.string("label")
        seeds.append(w.data)
        // {class: keys, type: 73 as Int, kcls: "1", bsiz: 256.0, accc: AccessControl}
        w = FuzzInputWriter()
        w.byte(5)
        w.byte(key("class")); known("keys").forEach { w.byte($0) }
        w.byte(key("type")); w.byte(Kind.numberInt.rawValue); w.uint64(73)
        w.byte(key("kcls")); known("1").forEach { w.byte($0) }
        w.byte(key("bsiz")); w.byte(Kind.double.rawValue); w.uint64((256.0).bitPattern)
        w.byte(key("accc")); w.byte(Kind.accessControl.rawValue); w.byte(0); w.uint64(1)
        seeds.append(w.data)
        return seeds
    }
}
