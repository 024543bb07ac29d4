import Foundation
import LatchkeyTestSupport
import LocalAuthentication
import Security
import Testing

/// docs/conformance/access-control.tsv: every one of the 512 `SecAccessControlCreateFlags` combinations is created,
/// used to add an item, and read with every kind of proof, on every store; what the rules of the table say decides
/// the expected outcome of each.
extension KeychainConformance {
    @Suite struct AccessControl {
        @Test(arguments: StoreKind.available) func everyFlagCombination(store: StoreKind) async throws {
            let rules = try AccessControlRules(try ConformanceTable.load("access-control.tsv"))
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                let contexts: [(name: String, context: LAContext, proofs: Set<AccessControlRules.Proof>)] = [
                    ("no proof", LAContext(), []),
                    ("biometric match", try facade.context(biometry: true, passcode: false), [.biometry]),
                    ("passcode", try facade.context(biometry: false, passcode: true), [.passcode]),
                    ("biometry and passcode", try facade.context(biometry: true, passcode: true), [.biometry, .passcode]),
                ]
                let all = contexts[3].context
                for raw in 0..<(1 << AccessControlRules.flags.count) {
                    try check(raw, rules, facade, contexts, all)
                }
            }
        }

        /// The table's `add` row: adding an access-controlled item asks for nothing (Apple seals it without a prompt;
        /// Latchkey to the domains' public keys) — with a context that may not interact, and with none while every
        /// prompt and scan would be refused — and the item then opens with the proofs its flags need.
        @Test(arguments: StoreKind.available.filter { $0 != .secretService })
        func addingAsksForNothing(store: StoreKind) async throws {
            let row = try #require(try ConformanceTable.load("access-control.tsv").rows.first { $0["section"] == "add" })
            try #require(row["value"] == "no authentication" && row.difference == nil)
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                facade.prompts.refusing = true
                try facade.simulator.setDefaultOutcome(.cancel)
                let constraints: [SecAccessControlCreateFlags] = [
                    .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, [.biometryAny, .or, .devicePasscode],
                    [.biometryCurrentSet, .and, .devicePasscode],
                ]
                var added: [String] = []
                for flags in constraints {
                    let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                               flags, nil))
                    let quiet = LAContext()
                    quiet.interactionNotAllowed = true
                    for context in [quiet, nil] {
                        let service = facade.unique("add")
                        var item: [String: Any] = ["class": "genp", "svce": service, "agrp": facade.group,
                                                   "v_Data": Data("sealed".utf8), "accc": control]
                        if let context { item["u_AuthCtx"] = context }
                        let status = facade.add(item)
                        #expect(status == errSecSuccess, "\(flags.rawValue) \(context == nil ? "no context" : "quiet context"): \(statusName(status))")
                        added.append(service)
                    }
                }
                #expect(facade.prompts.asked == 0, "adding prompted \(facade.prompts.asked) times")
                facade.prompts.refusing = false
                try facade.simulator.setDefaultOutcome(.match)
                for service in added {
                    let (status, value) = facade.copy(["class": "genp", "svce": service, "agrp": facade.group, "r_Data": true])
                    #expect(status == errSecSuccess && value as? Data == Data("sealed".utf8), "\(service): \(statusName(status))")
                }
                #expect(facade.prompts.asked > 0, "reading asked for the proofs")
            }
        }

        @Test func protectionMustBeAnAccessibilityConstant() {
            var error: Unmanaged<CFError>?
            #expect(SecAccessControlCreateWithFlags(nil, "zz" as NSString, [], &error) == nil)
            #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecParam))
        }

        private func check(_ raw: Int, _ rules: AccessControlRules, _ facade: Facade,
                           _ contexts: [(name: String, context: LAContext, proofs: Set<AccessControlRules.Proof>)],
                           _ all: LAContext) throws {
            let names = AccessControlRules.names(raw)
            let flags = AccessControlRules.flags(raw)
            let label = "\(facade.kind.rawValue) [\(names.sorted().joined(separator: ", "))]"
            var error: Unmanaged<CFError>?
            let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, &error)
            let code = error.map { CFErrorGetCode($0.takeRetainedValue()) }
            switch rules.creation(names) {
            case "errSecParam":
                #expect(control == nil && code == Int(errSecParam), "\(label): created \(control != nil), Apple errSecParam")
                return
            default:
                #expect(control != nil, "\(label): not created (\(String(describing: code))), Apple creates it")
            }
            guard let control else { return }
            let secret = Data("secret \(raw)".utf8)
            let service = facade.unique("ac")
            all.setCredential(Data(PromptAnswers.appPasswordValue.utf8), type: .applicationPassword)
            let added = facade.add(["class": "genp", "svce": service, "agrp": facade.group, "v_Data": secret,
                                    "accc": control, "u_AuthCtx": all])
            if facade.kind == .secretService && rules.hasConstraint(names) {
                #expect(added == errSecUnimplemented, "\(label): \(statusName(added)); the table's store row says errSecUnimplemented")
                return
            }
            #expect(added == errSecSuccess, "\(label): add \(statusName(added))")
            guard added == errSecSuccess else { return }
            defer { _ = facade.delete(["class": "genp", "svce": service, "agrp": facade.group]) }
            let passwords: [AccessControlRules.Password] = names.contains("applicationPassword") ? [.right, .missing, .wrong] : [.right]
            for (name, context, proofs) in contexts {
                for password in passwords {
                    switch password {
                    case .right: context.setCredential(Data(PromptAnswers.appPasswordValue.utf8), type: .applicationPassword)
                    case .missing: context.setCredential(nil, type: .applicationPassword)
                    case .wrong: context.setCredential(Data("not the password".utf8), type: .applicationPassword)
                    }
                    let expected = rules.read(names, proofs: proofs, password: password)
                    let (status, result) = facade.copy(["class": "genp", "svce": service, "agrp": facade.group, "r_Data": true,
                                                        "u_AuthCtx": context, "u_AuthUI": "u_AuthUIF"])
                    #expect(statusName(status) == expected, "\(label) read with \(name), application password \(password): \(statusName(status)), expected \(expected)")
                    if status == errSecSuccess { #expect(result as? Data == secret, "\(label): the value") }
                }
            }
            // No context: the keychain asks, as Apple's does, for what the flags need.
            let prompted = facade.copy(["class": "genp", "svce": service, "agrp": facade.group, "r_Data": true])
            let expected = rules.read(names, proofs: [.biometry, .passcode], password: .right)
            #expect(statusName(prompted.0) == expected, "\(label) read with the prompts: \(statusName(prompted.0)), expected \(expected)")
        }
    }
}

/// The rules of access-control.tsv, turned into what each combination of flags needs.
struct AccessControlRules {
    /// The flags, in bit order of the combinations (bit i = `flags[i]`).
    static let flags: [(name: String, flag: SecAccessControlCreateFlags)] = [
        ("userPresence", .userPresence), ("biometryAny", .biometryAny), ("biometryCurrentSet", .biometryCurrentSet),
        ("devicePasscode", .devicePasscode), ("companion", .companion), ("or", .or), ("and", .and),
        ("privateKeyUsage", .privateKeyUsage), ("applicationPassword", .applicationPassword),
    ]

    enum Proof: Hashable { case biometry, passcode }
    enum Password: CustomStringConvertible {
        case right, missing, wrong
        var description: String { switch self { case .right: "right"; case .missing: "missing"; case .wrong: "wrong" } }
    }

    /// What proves a constraint.
    enum Need { case either, biometry, passcode, never }

    private var creationRules: [(all: [String], anyOf: [String], outcome: String)] = []
    private var needs: [String: Need] = [:]
    private var words: [String: String] = [:]
    private var errors: [String: String] = [:]
    private var neverStatus = "errSecAuthFailed"

    init(_ table: ConformanceTable) throws {
        for row in table.rows {
            switch row["section"] {
            case "create":
                // "a & b" or "a & (b | c | …)"; the rows about the protection and "any other" are not flag conditions.
                let parts = row["item"].components(separatedBy: " & ")
                guard parts.count == 2, Self.flags.contains(where: { $0.name == parts[0] }) else { continue }
                let right = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "()"))
                    .components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
                creationRules.append(([parts[0]], right, row["value"]))
            case "constraint":
                let value = row["value"]
                words[row["item"]] = value
                if row.difference == "never" {
                    needs[row["item"]] = .never
                    if let status = row["linux"].components(separatedBy: " ").first(where: { $0.hasPrefix("errSec") }) {
                        neverStatus = status.trimmingCharacters(in: CharacterSet(charactersIn: ")."))
                    }
                } else if value.hasPrefix("biometry | passcode") { needs[row["item"]] = .either
                } else if value.hasPrefix("biometry") { needs[row["item"]] = .biometry
                } else if value.hasPrefix("passcode") { needs[row["item"]] = .passcode
                } else { throw ConformanceTable.TableError.malformed(table.name, "unknown constraint proof \(value)") }
            case "error": errors[row["item"]] = row["value"]
            default: continue
            }
        }
        guard needs.count == 5, creationRules.count == 3, errors.count >= 4 else {
            throw ConformanceTable.TableError.malformed(table.name, "rules missing")
        }
    }

    static func names(_ raw: Int) -> Set<String> {
        Set(flags.indices.filter { raw & (1 << $0) != 0 }.map { flags[$0].name })
    }

    static func flags(_ raw: Int) -> SecAccessControlCreateFlags {
        flags.indices.filter { raw & (1 << $0) != 0 }.reduce(into: SecAccessControlCreateFlags()) { $0.insert(flags[$1].flag) }
    }

    /// "errSecParam" or "ok".
    func creation(_ names: Set<String>) -> String {
        for rule in creationRules where rule.all.allSatisfy(names.contains) && rule.anyOf.contains(where: names.contains) {
            return rule.outcome
        }
        return "ok"
    }

    func hasConstraint(_ names: Set<String>) -> Bool { names.contains { needs[$0] != nil } }

    /// The alternatives: `or` → one per constraint; otherwise one with every constraint.
    private func alternatives(_ names: Set<String>) -> [[Need]] {
        let constraints = names.compactMap { needs[$0] }
        if constraints.isEmpty { return [] }
        return names.contains("or") ? constraints.map { [$0] } : [constraints]
    }

    private static func proves(_ need: Need, _ proofs: Set<Proof>) -> Bool {
        switch need {
        case .either: !proofs.isEmpty
        case .biometry: proofs.contains(.biometry)
        case .passcode: proofs.contains(.passcode)
        case .never: false
        }
    }

    /// The alternatives in words, each constraint with the proof its row names (flags in bit order).
    func describedAlternatives(_ names: Set<String>) -> [[String]] {
        let described = Self.flags.map(\.name).filter { names.contains($0) && needs[$0] != nil }
            .map { "\($0) (\(words[$0] ?? "?"))" }
        if described.isEmpty { return [] }
        return names.contains("or") ? described.map { [$0] } : [described]
    }

    /// The status of a read with kSecUseAuthenticationUIFail by a context that proved `proofs`.
    func read(_ names: Set<String>, proofs: Set<Proof>, password: Password) -> String {
        let alternatives = alternatives(names)
        if !alternatives.isEmpty {
            if !alternatives.contains(where: { !$0.contains(.never) }) { return neverStatus }
            if !alternatives.contains(where: { $0.allSatisfy { Self.proves($0, proofs) } }) {
                return errors["nothing proven, kSecUseAuthenticationUIFail"] ?? "?"
            }
        }
        if names.contains("applicationPassword") {
            switch password {
            case .missing: return errors["no application password, kSecUseAuthenticationUIFail"] ?? "?"
            case .wrong: return errors["wrong application password"] ?? "?"
            case .right: break
            }
        }
        return "errSecSuccess"
    }
}
