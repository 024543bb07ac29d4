import Foundation
import LatchkeySupport

/// One caller's body waiting for an SQLite group commit (`SQLiteDatabase.batchedTransaction`).
protocol GroupCommitMember: AnyObject, Sendable {
    var durability: TransactionDurability { get }
    /// Runs the body on the shared transaction's connection; false when it threw (its error is kept).
    func run(on connection: any SQLConnection) -> Bool
    /// Publishes the outcome: the body's own result or error, or `commitError` for a body that succeeded in
    /// a transaction that then failed to commit.
    func finish(commitError: (any Error)?)
    var isFinished: Bool { get }
}

/// A body and, once its batch has committed, its outcome.
final class GroupCommitJob<T: Sendable>: GroupCommitMember {
    let durability: TransactionDurability
    private let body: @Sendable (any SQLConnection) throws -> T
    private let state = Locked<State>(State())

    private struct State {
        var outcome: Result<T, any Error>?
        var finished = false
    }

    init(durability: TransactionDurability, body: @escaping @Sendable (any SQLConnection) throws -> T) {
        self.durability = durability
        self.body = body
    }

    func run(on connection: any SQLConnection) -> Bool {
        let outcome = Result { try body(connection) }
        state.withLock { $0.outcome = outcome }
        if case .success = outcome { return true }
        return false
    }

    func finish(commitError: (any Error)?) {
        state.withLock { state in
            switch (state.outcome, commitError) {
            case (.failure?, _): break // the body's own error stands
            case (_, let error?): state.outcome = .failure(error) // it ran (or was about to), but nothing was committed
            case (.success?, nil): break
            case (nil, nil): state.outcome = .failure(DatabaseError.statementFailed("a batched transaction was not run"))
            }
            state.finished = true
        }
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// The published outcome; called after the batch that held this job has finished it.
    func outcome() throws -> T {
        let outcome = state.withLock { $0.finished ? $0.outcome : nil }
        guard let outcome else { throw DatabaseError.statementFailed("a batched transaction was not committed") }
        return try outcome.get()
    }
}

/// The callers waiting for a group commit, and which of them is committing now (the leader).
///
/// A caller queues its job; if no one is committing, it becomes the leader: it takes every queued job,
/// commits them as one batch, and wakes the others. Callers whose jobs a leader took sleep on the condition
/// until it has finished them, instead of queueing on the connection's lock: that lock is held for a whole
/// commit, and a thread waiting for it would spin first (Swift's `Mutex` spins before it parks, and so does
/// the kernel's priority-inheriting futex behind it) — a sixth of the refresh endpoint's CPU on two cores.
// @unchecked Sendable: `pending` and `leading` are only read and written with `condition` locked.
final class GroupCommitQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [any GroupCommitMember] = []
    private var leading = false

    /// Returns once `job` is finished: committed (or failed) in a batch that this caller or another led.
    /// `commit` runs one batch; it must finish every member it is given.
    func run(_ job: any GroupCommitMember, commit: ([any GroupCommitMember]) -> Void) {
        condition.lock()
        pending.append(job)
        while !job.isFinished {
            if leading {
                condition.wait()
                continue
            }
            leading = true
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            condition.unlock()
            commit(batch)
            condition.lock()
            leading = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
