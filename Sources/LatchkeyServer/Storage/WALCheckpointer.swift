import CSQLite
import Foundation
import LatchkeySupport

/// Copies an SQLite database's write-ahead log back into the database file on its own thread and
/// connection, so that no request waits for a checkpoint.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses the threshold: that one commit then
/// copies up to a thousand pages and syncs the file twice while the server's writer lock is held, and every
/// request queued behind it waits (a large part of the refresh endpoint's p99). Here the commit only
/// signals (`sqlite3_wal_hook`); this thread copies the pages and syncs without the lock (a passive checkpoint
/// never blocks a writer), then takes the writer lock only to copy the few frames written meanwhile, so the
/// next commit can start the log from its beginning and the file stays bounded.
///
/// **Backstop.** A thread starved of CPU (a loaded machine, a busy server) can fall behind the commits, and then
/// nothing else would bound the log. So once the log reaches `backstopMultiple` times the threshold, the commit
/// that finds it so runs a passive checkpoint itself, on its own connection with the writers held off (it holds
/// the database's writer lock), before its caller goes on: the log is then fully copied and the next commit
/// restarts it. That commit pays what SQLite's automatic checkpoint would have; the thread, when it keeps up,
/// never lets the log get there. A checkpoint the thread is running is waited for (`checkpointLock`), not raced.
final class WALCheckpointer: Sendable {
    /// Log size, in pages, at which a checkpoint is started.
    let thresholdPages: Int32
    /// Log size, in pages, at which the committing connection checkpoints itself (`backstopMultiple` × threshold).
    let backstopPages: Int32
    /// How many thresholds the log may reach before a commit checkpoints it (4: at the default threshold, 64 MiB).
    static let backstopMultiple: Int32 = 4
    private let state = Locked(State())
    /// Held while a checkpoint copies (the thread's or a commit's): two checkpoints of one file never overlap, so the
    /// backstop waits for the thread's copy to end instead of finding the checkpoint lock taken (SQLITE_BUSY).
    /// Lock order: the database's writer lock, then this one.
    private let checkpointLock = Locked(())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Held only until `stop`, so the thread, which may outlive `stop` briefly, keeps no database connection open.
    private let writerLock: Locked<(@Sendable (() -> Void) -> Void)?>

    private struct State {
        var requested = false
        var stopping = false
        /// The thread does no checkpoint while held (tests: a starved thread, made deterministic).
        var held = false
        var checkpoints = 0
        var backstops = 0
    }

    /// Opens the checkpoint's own connection to `path` and starts its thread.
    /// - Parameter withWriterLock: runs a closure while the database's writers are held off (the database's
    ///   connection mutex); used only for the short catch-up after the unlocked checkpoint.
    init(path: String, thresholdPages: Int32,
         withWriterLock: @escaping @Sendable (() -> Void) -> Void) throws {
        self.thresholdPages = thresholdPages
        backstopPages = thresholdPages.multipliedReportingOverflow(by: Self.backstopMultiple).overflow
            ? .max : thresholdPages * Self.backstopMultiple
        writerLock = Locked(withWriterLock)
        let connection = try CheckpointConnection(path: path)
        let thread = Thread { [self] in self.run(connection) }
        thread.name = "latchkey-wal"
        thread.start()
    }

    /// Number of checkpoints the thread ran so far (for tests).
    var checkpointCount: Int { state.withLock { $0.checkpoints } }

    /// Number of backstop checkpoints commits ran so far (for tests).
    var backstopCount: Int { state.withLock { $0.backstops } }

    /// Keeps the thread from checkpointing until `resume()` (for tests: the thread as if never scheduled).
    func hold() { state.withLock { $0.held = true } }

    /// Lets a held thread checkpoint again.
    func resume() { state.withLock { $0.held = false } }

    /// Called after each commit, on the committing connection `database` (with the writers held off), with the
    /// log's size in pages: wakes the thread past the threshold, and checkpoints right here past the backstop.
    func committed(logPages: Int32, on database: OpaquePointer?) {
        guard logPages >= thresholdPages else { return }
        if logPages >= backstopPages, let database {
            checkpointLock.withLock { _ in _ = sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
            state.withLock { $0.backstops += 1 }
            return
        }
        let signal = state.withLock { state -> Bool in
            guard !state.requested, !state.stopping, !state.held else { return false }
            state.requested = true
            return true
        }
        if signal { wake.signal() }
    }

    /// Stops the thread (after any checkpoint in progress) and closes its connection.
    func stop() {
        let signal = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.stopping = true
            return true
        }
        guard signal else { return }
        wake.signal()
        finished.wait()
        writerLock.withLock { $0 = nil }
    }

    private func run(_ connection: CheckpointConnection) {
        defer {
            connection.close()
            finished.signal()
        }
        while true {
            wake.wait()
            let (stopping, held) = state.withLock { state -> (Bool, Bool) in
                state.requested = false
                return (state.stopping, state.held)
            }
            if stopping { return }
            if held { continue }
            // The bulk: copy and sync while writers go on appending.
            let (log, copied) = checkpointLock.withLock { _ in connection.checkpoint() }
            // The remainder, a few frames, with writers held off: afterwards every frame is in the database,
            // so the next writer restarts the log instead of growing it.
            if log > copied, let withWriterLock = writerLock.withLock({ $0 }) {
                withWriterLock { checkpointLock.withLock { _ in _ = connection.checkpoint() } }
            }
            state.withLock { $0.checkpoints += 1 }
        }
    }
}

/// The checkpoint thread's connection. Used only on that thread; closed when the thread ends.
private final class CheckpointConnection: @unchecked Sendable { // handed once to the checkpoint thread, used only there
    private var handle: OpaquePointer?

    init(path: String) throws {
        let db = try SQLiteConnection.open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
        handle = db
        sqlite3_busy_timeout(db, 5_000)
        // Checkpoints sync the log before copying it and the database after (the connection's default, FULL).
        sqlite3_exec(db, "PRAGMA synchronous=FULL", nil, nil, nil)
    }

    deinit { close() }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// A passive checkpoint: copies what it can without waiting for anyone. Returns the log's size and how
    /// many of its frames are now in the database (both 0 when SQLite reports an error, which the next
    /// checkpoint retries).
    func checkpoint() -> (log: Int32, copied: Int32) {
        var log: Int32 = 0
        var copied: Int32 = 0
        guard let handle, sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) == SQLITE_OK else {
            return (0, 0)
        }
        return (log, copied)
    }
}
