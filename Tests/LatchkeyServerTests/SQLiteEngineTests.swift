import Foundation
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// What the SQLite engine adds under the shared storage suite: the checkpoint thread and group commit.
@Suite struct SQLiteEngineTests {
    /// The log is copied back by the checkpoint thread, not by commits: it stays bounded under a stream of
    /// commits, nothing written is lost, and closing the database stops the thread and removes the log.
    @Test func theCheckpointThreadKeepsTheLogBoundedAndLosesNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-checkpoint-\(randomHex(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("server.sqlite").path
        let commits = 4_000
        do {
            let db = try SQLiteDatabase(path: path, checkpointPages: 16)
            try db.withConnection { try $0.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT NOT NULL)") }
            for n in 0..<commits {
                try db.transaction(durability: n % 2 == 0 ? .relaxed : .full) { conn in
                    try conn.execute("INSERT INTO t (n, v) VALUES (?, ?)", [.integer(Int64(n)), .text(String(repeating: "x", count: 200))])
                }
            }
            #expect(db.checkpointCount > 0)
            // Every commit appends at least one 4 KiB frame: with no checkpoint the log would hold 4,000 of them.
            // Restarted at each checkpoint, it holds the threshold plus what was written while one ran (340–423
            // frames measured on an idle machine; the bound leaves room for a loaded one).
            let frames = try logFrames(path + "-wal")
            #expect(frames < commits / 2, "log of \(frames) frames after \(commits) commits")
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
    @Test func groupCommitQueueBatchesWaitersAndFinishesEveryJob() {
        let queue = GroupCommitQueue()
        let batches = Locked<[Int]>([])
        let early = Locked(0)
        let threads = 8, perThread = 50
        // Threads of their own (a dispatch pool would run only as many at once as there are cores): a batch
        // holds more than one job only when two or more callers wait behind a commit.
        _ = onThreads(threads) { _ in
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
    private func logFrames(_ path: String) throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        return max(0, size - 32) / (24 + 4_096)
    }
}
