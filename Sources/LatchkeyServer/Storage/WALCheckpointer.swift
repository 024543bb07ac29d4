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
final class WALCheckpointer: Sendable {
    /// Log size, in pages, at which a checkpoint is started.
    let thresholdPages: Int32
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Held only until `stop`, so the thread, which may outlive `stop` briefly, keeps no database connection open.
    private let writerLock: Locked<(@Sendable (() -> Void) -> Void)?>

    private struct State {
        var requested = false
        var stopping = false
        var checkpoints = 0
    }

    /// Opens the checkpoint's own connection to `path` and starts its thread.
    /// - Parameter withWriterLock: runs a closure while the database's writers are held off (the database's
    ///   connection mutex); used only for the short catch-up after the unlocked checkpoint.
    init(path: String, thresholdPages: Int32,
         withWriterLock: @escaping @Sendable (() -> Void) -> Void) throws {
        self.thresholdPages = thresholdPages
        writerLock = Locked(withWriterLock)
        let connection = try CheckpointConnection(path: path)
        let thread = Thread { [self] in self.run(connection) }
        thread.name = "latchkey-wal"
        thread.start()
    }

    /// Number of checkpoints run so far (for tests).
    var checkpointCount: Int { state.withLock { $0.checkpoints } }

    /// Called after each commit with the log's size in pages.
    func committed(logPages: Int32) {
        guard logPages >= thresholdPages else { return }
        let signal = state.withLock { state -> Bool in
            guard !state.requested, !state.stopping else { return false }
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
            let stopping = state.withLock { state -> Bool in
                state.requested = false
                return state.stopping
            }
            if stopping { return }
            // The bulk: copy and sync while writers go on appending.
            let (log, copied) = connection.checkpoint()
            // The remainder, a few frames, with writers held off: afterwards every frame is in the database,
            // so the next writer restarts the log instead of growing it.
            if log > copied, let withWriterLock = writerLock.withLock({ $0 }) { withWriterLock { _ = connection.checkpoint() } }
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
