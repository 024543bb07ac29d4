import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// What the SQLite engine adds under the shared storage suite: the checkpoint thread and group commit.
@Suite(.offCooperativePool) struct SQLiteEngineTests {
    /// The log is copied back by the checkpoint thread, not by commits: it stays bounded under a stream of
    /// commits, nothing written is lost, and closing the database stops the thread and removes the log.
    @Test func theCheckpointThreadKeepsTheLogBoundedAndLosesNothing() throws {
        try Self.commitStream { db, path, commits in
            #expect(db.checkpointCount > 0)
            // Every commit appends at least one 4 KiB frame: with no checkpoint the log would hold 4,000 of them.
            // The thread restarts it at each checkpoint; where it falls behind (a loaded machine: 2,165 frames were
            // once seen here), the backstop holds it to 4 thresholds plus the last commit's frames, whatever the load.
            let frames = try Self.logFrames(path + "-wal")
            #expect(frames <= Self.bound, "log of \(frames) frames after \(commits) commits")
        }
    }

    /// The backstop alone: with the checkpoint thread held still (as if never scheduled), the commits that find the
    /// log at 4 thresholds checkpoint it themselves, so it stays bounded and nothing is lost.
    @Test func theBackstopBoundsTheLogWhileTheCheckpointThreadIsStarved() throws {
        try Self.commitStream(holdingTheThread: true) { db, path, commits in
            #expect(db.checkpointCount == 0, "the held thread checkpointed")
            #expect(db.backstopCount > 0)
            let frames = try Self.logFrames(path + "-wal")
            #expect(frames <= Self.bound, "log of \(frames) frames after \(commits) commits")
        }
    }

    /// Threshold of the commit-stream tests, in pages.
    static let threshold: Int32 = 16
    /// The largest log they accept, in frames: the backstop (4 thresholds) plus one commit's frames (an insert that
    /// splits pages writes a few; 16 is ample).
    static let bound = Int(threshold * WALCheckpointer.backstopMultiple) + 16

    /// 4,000 commits of a 200-byte row, alternately relaxed and full, on a database with a 16-page threshold; `check`
    /// looks at it before it is closed. Afterwards every row is there, and closing removed the log.
    static func commitStream(holdingTheThread: Bool = false,
                             _ check: (SQLiteDatabase, String, Int) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-checkpoint-\(randomHex(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("server.sqlite").path
        let commits = 4_000
        do {
            let db = try SQLiteDatabase(path: path, checkpointPages: threshold)
            if holdingTheThread { db.walCheckpointer.hold() }
            try db.withConnection { try $0.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT NOT NULL)") }
            for n in 0..<commits {
                try db.transaction(durability: n % 2 == 0 ? .relaxed : .full) { conn in
                    try conn.execute("INSERT INTO t (n, v) VALUES (?, ?)", [.integer(Int64(n)), .text(String(repeating: "x", count: 200))])
                }
            }
            try check(db, path, commits)
            #expect(try db.withConnection { try $0.execute("SELECT count(*) FROM t").first?.integer(0) } == Int64(commits))
        }
        // Closed (thread stopped, last connection gone): SQLite checkpoints the rest and deletes the log.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try SQLiteDatabase(path: path)
        #expect(try reopened.withConnection { try $0.execute("SELECT count(*) FROM t").first?.integer(0) } == Int64(commits))
    }

    /// Group commit: 8 threads × 200 bodies, every fifth one throwing after its insert. Each caller gets its
    /// own outcome, a thrown body's insert is undone and no other, and bodies really shared commits.
    @Test func batchedTransactionsCommitTogetherAndFailAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-batch-\(randomHex(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try SQLiteDatabase(path: dir.appendingPathComponent("server.sqlite").path)
        try db.withConnection { try $0.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)") }
        struct Refused: Error, Equatable { let n: Int }
        let threads = 8, perThread = 200
        let wrong = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread {
                let n = thread * perThread + i
                do {
                    let echoed = try db.batchedTransaction(durability: .relaxed) { conn -> Int in
                        try conn.execute("INSERT INTO t (n) VALUES (?)", [.integer(Int64(n))])
                        if n % 5 == 0 { throw Refused(n: n) }
                        return n
                    }
                    if echoed != n || n % 5 == 0 { wrong.withLock { $0 += 1 } }
                } catch let error as Refused {
                    if error.n != n { wrong.withLock { $0 += 1 } }
                } catch {
                    wrong.withLock { $0 += 1 }
                }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
        let stored = try db.withConnection { try $0.execute("SELECT n FROM t ORDER BY n").map { try $0.integer(0) } }
        #expect(stored == (0..<(threads * perThread)).filter { $0 % 5 != 0 }.map(Int64.init))
        // A failed body and a failing statement in the next batch do not leave a transaction open.
        #expect(throws: DatabaseError.self) {
            try db.batchedTransaction(durability: .full) { conn in try conn.execute("INSERT INTO missing VALUES (1)") }
        }
        try db.transaction { conn in try conn.execute("INSERT INTO t (n) VALUES (?)", [.integer(-1)]) }
        #expect(try db.withConnection { try $0.execute("SELECT count(*) FROM t").first?.integer(0) } == Int64(stored.count + 1))
    }

    /// The group-commit queue: while one caller commits, the others' jobs wait and go out together in the next
    /// batch; every caller returns only once its own job is finished, and each job is in exactly one batch.
    @Test func groupCommitQueueBatchesWaitersAndFinishesEveryJob() async {
        let queue = GroupCommitQueue()
        let batches = Locked<[Int]>([])
        let early = Locked(0)
        let threads = 8, perThread = 50
        // Threads of their own (a dispatch pool would run only as many at once as there are cores): a batch
        // holds more than one job only when two or more callers wait behind a commit.
        _ = await onThreads(threads) { _ in
            for _ in 0..<perThread {
                let job = GroupCommitJob<Int>(durability: .relaxed) { _ in 1 }
                queue.run(job) { batch in
                    usleep(200) // a commit's length, so that others queue meanwhile
                    batches.withLock { $0.append(batch.count) }
                    for member in batch { member.finish(commitError: nil) }
                }
                if !job.isFinished { early.withLock { $0 += 1 } }
            }
        }
        let sizes = batches.withLock { $0 }
        #expect(early.withLock { $0 } == 0)
        #expect(sizes.reduce(0, +) == threads * perThread, "each job in exactly one batch")
        #expect(sizes.count < threads * perThread, "waiting jobs were committed together")
    }

    /// The log file's length in frames (a 32-byte header, then 24 bytes of frame header per 4 KiB page).
    static func logFrames(_ path: String) throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        return max(0, size - 32) / (24 + 4_096)
    }
}
