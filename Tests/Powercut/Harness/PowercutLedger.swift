/// What a store acknowledged, per key (an item, an account, a passkey...), and the one operation in flight at the cut:
/// the ledger a reopen is checked against. A value of nil is "absent" (never added, or deleted).
package struct PowercutLedger<Value: Equatable & Sendable>: Sendable {
    /// The acknowledged state.
    package private(set) var values: [String: Value] = [:]
    /// The changes of the operation that had not returned when the cut came, applied all together or not at all.
    package private(set) var inFlight: [(key: String, value: Value?)] = []
    /// Every value ever acknowledged for a key (to tell a lost update from a value never written).
    private var history: [String: [Value]] = [:]

    package init() {}

    package subscript(key: String) -> Value? { values[key] }

    package var keys: Dictionary<String, Value>.Keys { values.keys }

    /// Starts an operation: its changes are in flight until `acknowledge`.
    package mutating func begin(_ changes: [(key: String, value: Value?)]) { inFlight = changes }

    /// The operation in flight returned before the cut: its changes are acknowledged.
    package mutating func acknowledge() {
        for (key, value) in inFlight { set(key, value) }
        inFlight = []
    }

    /// Sets an acknowledged value directly (prepared state).
    package mutating func set(_ key: String, _ value: Value?) {
        values[key] = value
        if let value, history[key]?.last != value { history[key, default: []].append(value) }
    }

    /// Compares what a reopen found with the ledger: every acknowledged value present (else lost), nothing that was never
    /// written (else wrong), the in-flight operation's changes all there or none (else wrong). Then the ledger becomes
    /// what was found. `describe` names a key in findings.
    package mutating func check(_ found: [String: Value], _ trial: PowercutTrial, what describe: (String) -> String) {
        var keys = Set(values.keys).union(found.keys)
        for change in inFlight { keys.insert(change.key) }
        var applied = 0, notApplied = 0
        for key in keys.sorted() {
            let acknowledged = values[key], current = found[key]
            let change = inFlight.first { $0.key == key }
            if current == acknowledged {
                if let change, change.value != acknowledged { notApplied += 1 }
                continue
            }
            if let change, current == change.value {
                applied += 1
                continue
            }
            if current == nil {
                trial.lost("\(describe(key)): acknowledged, missing")
            } else if acknowledged == nil {
                trial.wrong("\(describe(key)): never acknowledged, found")
            } else if let current, history[key, default: []].contains(current) {
                trial.lost("\(describe(key)): an acknowledged change is missing (an earlier value is current)")
            } else {
                trial.wrong("\(describe(key)): a value that was never written")
            }
        }
        if trial.tally.lost + trial.tally.wrong > 0 {
            func list(_ values: [String: Value]) -> String {
                values.keys.sorted().prefix(40).map { "\($0)=\(values[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
            }
            trial.detail("acknowledged: [\(list(values))]; in flight: \(inFlight.map { "\($0.key)=\($0.value.map { "\($0)" } ?? "nil")" }); "
                         + "found: [\(list(found))]")
        }
        if applied > 0 && notApplied > 0 {
            trial.wrong("the operation in flight is partly there (\(applied) of \(applied + notApplied) changes)")
        } else if applied > 0 {
            trial.inFlightCommitted()
        }
        values = [:]
        for (key, value) in found { set(key, value) }
        inFlight = []
    }
}
