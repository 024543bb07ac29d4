import Foundation
import LatchkeySupport

/// One store under power cuts — a file of its own under Stores/: how its files start, the operations a cut lands in,
/// and how what survived a cut is checked against what was acknowledged before it.
///
/// The runner (`PowercutRun`) calls `prepare` once (and again after a refusal), then for every trial: `run` (with the
/// cut armed inside one operation), `close` (every handle dropped: the process is gone), the reboot, then `reopen`,
/// which opens the files through the store's normal code path, checks them, and leaves them open for the next `run`.
package protocol PowercutStore: AnyObject {
    /// The name printed in `powercut <name>:`.
    var name: String { get }
    /// The kinds of operation trials cut inside, in turn.
    var operations: [String] { get }
    /// Creates the starting files in `directory` (not yet watched: nothing is cut) and resets the ledger to them.
    func prepare(in directory: URL) throws
    /// Runs trial work: any operations acknowledged as usual, then operation number `operation` with the cut armed
    /// (`trial.armCut()`) right before it. Records in the ledger what was acknowledged and what was in flight.
    func run(_ operation: Int, _ trial: PowercutTrial)
    /// Drops every handle on the store's files.
    func close()
    /// After a reboot: opens the files through the normal code path and checks them against the ledger (reporting to
    /// `trial`), then settles the ledger to what was found. `.refused` when opening refused the files.
    func reopen(_ trial: PowercutTrial) -> PowercutReopen
    /// Whether a refusal's message names the recovery (what the user should do).
    func namesRecovery(_ message: String) -> Bool
    /// Anything the store adds to its result line (after the standard figures), or "".
    func summary(_ tally: PowercutTally) -> String
}

extension PowercutStore {
    package func namesRecovery(_ message: String) -> Bool { false }
    package func summary(_ tally: PowercutTally) -> String { "" }
}

/// What reopening after a cut found.
package enum PowercutReopen {
    /// Opened and checked (findings, if any, went to the trial).
    case checked
    /// Opening refused the files, with this message.
    case refused(message: String)
    /// Checked (findings, if any, went to the trial), and the next trial must start again from `prepare`: the store cannot
    /// go on with these files, or each of its trials starts from the prepared state.
    case restart
}

/// The figures of a run, and every failure found.
package struct PowercutTally: Sendable {
    package var cuts = 0
    package var acknowledged = 0
    package var lost = 0
    package var wrong = 0
    package var inFlightCommitted = 0
    package var refusedAtOpen = 0
    /// Refusals that changed the refused files (must stay 0).
    package var refusedTouched = 0
    /// Operations acknowledged with a commit that promises less than durability (`.relaxed`), and how many of those a
    /// cut rolled back (allowed by that promise).
    package var relaxed = 0
    package var relaxedRolledBack = 0
    /// Anything that went wrong other than a lost or wrong operation (an operation that failed with no cut, a
    /// refusal that touched the file or named no recovery...).
    package var unexpected = 0
    package var failures: [String] = []

    package var passed: Bool { lost == 0 && wrong == 0 && refusedTouched == 0 && unexpected == 0 }
}

/// One trial, as a store sees it: the dice, the cut, and where findings go. Safe to use from several threads.
package final class PowercutTrial: Sendable {
    package let seed: UInt64
    package let operation: String
    private let spans: Locked<[String: Int]>
    private let state: Locked<State>

    private struct State {
        var random: PowercutRandom
        var armedAt: Int?
        var tally = PowercutTally()
        var findings: [String] = []
    }

    init(seed: UInt64, operation: String, spans: Locked<[String: Int]>) {
        self.seed = seed
        self.operation = operation
        self.spans = spans
        state = Locked(State(random: PowercutRandom(seed: seed)))
    }

    /// A random integer in `range` (the trial's dice).
    package func random(_ range: Range<Int>) -> Int { state.withLock { Int.random(in: range, using: &$0.random) } }

    /// A fresh generator for a thread of the trial, derived from the trial's seed.
    package func generator(_ index: Int) -> PowercutRandom { PowercutRandom(seed: PowercutRandom.derive(seed, index)) }

    /// Arms the cut at a random event inside the operation about to start: uniform up to a little more than the most
    /// events this kind of operation was seen to make (so that some cuts land just after it, and the bound keeps up).
    package func armCut() {
        let span = spans.withLock { $0[operation, default: 64] }
        let at = random(1..<(span + span / 4 + 3))
        let now = PowercutSimulator.events
        state.withLock { $0.armedAt = now }
        PowercutSimulator.arm(after: at)
    }

    /// True once the cut happened: an operation that returns after it was in flight, not acknowledged.
    package var hasCut: Bool { PowercutSimulator.hasCut }

    /// Called by the runner after `run`: learns the operation's size when no cut landed inside it.
    func learnSpan() {
        guard let armedAt = state.withLock({ $0.armedAt }) else { return }
        let used = PowercutSimulator.events - armedAt
        spans.withLock { $0[operation] = max($0[operation] ?? 0, used + 1) }
    }

    package func acknowledged(_ count: Int = 1) { state.withLock { $0.tally.acknowledged += count } }
    package func relaxed(_ count: Int = 1) { state.withLock { $0.tally.relaxed += count } }
    package func relaxedRolledBack(_ count: Int = 1) { state.withLock { $0.tally.relaxedRolledBack += count } }
    package func inFlightCommitted(_ count: Int = 1) { state.withLock { $0.tally.inFlightCommitted += count } }

    /// An acknowledged operation missing after the reopen.
    package func lost(_ what: String) { state.withLock { $0.tally.lost += 1; $0.findings.append("LOST: \(what)") } }

    /// A value never written, or one rolled back, found as current.
    package func wrong(_ what: String) { state.withLock { $0.tally.wrong += 1; $0.findings.append("WRONG: \(what)") } }

    /// What a failing check found, to help read its findings (not counted).
    package func detail(_ what: String) { state.withLock { $0.findings.append("DETAIL: \(what)") } }

    /// Something else that should not happen (an operation failing with no cut...).
    package func unexpected(_ what: String) {
        state.withLock { $0.tally.unexpected += 1; $0.findings.append("UNEXPECTED: \(what)") }
    }

    /// Runs one operation: true when it returned before the cut (acknowledged, and counted), false when it failed or
    /// the cut came first (in flight). An operation that fails with no cut is reported.
    package func attempt(_ what: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
        } catch {
            if !hasCut { unexpected("\(what) failed with no cut: \(error)") }
            return false
        }
        guard !hasCut else { return false }
        acknowledged()
        return true
    }

    var tally: PowercutTally { state.withLock { $0.tally } }
    var findings: [String] { state.withLock { $0.findings } }
}
