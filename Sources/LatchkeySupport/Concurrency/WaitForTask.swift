#if os(Linux)
import Foundation

/// Runs `operation` and blocks the calling thread until it finishes: for the synchronous Linux facades that prompt
/// and wait, as Apple's do (`SecItem…` with an access-controlled item, a `SecureEnclave` key's signature).
///
/// The operation runs on a thread of its own (a task whose executor preference is a one-off `TaskExecutor`), not on
/// the cooperative pool: the caller may itself be a task of the pool, and a pool whose every thread waits here for a
/// job queued behind them would never run it (two parallel tests on a two-core machine were enough).
package func waitForTask<T: Sendable, E: Error>(_ operation: @escaping @Sendable () async throws(E) -> T) throws(E) -> T {
    let executor = DedicatedThreadExecutor()
    defer { executor.finish() }
    let outcome = Locked<Result<T, E>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: executor) {
        let result: Result<T, E>
        do throws(E) {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    // The task stored its result before signalling.
    return try outcome.withLock { value throws(E) -> T in
        switch value {
        case let .success(result)?: return result
        case let .failure(error)?: throw error
        case nil: preconditionFailure("the task signalled without a result")
        }
    }
}

/// A task executor running its jobs, in order, on one thread it starts; the thread ends after `finish()` once the
/// queue is empty.
private final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable { // every field is guarded by `condition`
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "latchkey.waitForTask"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
#endif
