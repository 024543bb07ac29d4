#if os(Linux)
import Foundation

/// Runs `operation` and blocks the calling thread until it finishes: for the synchronous Linux facades that prompt
/// and wait, as Apple's do (`SecItem…` with an access-controlled item, a `SecureEnclave` key's signature).
///
/// The operation runs on a thread of its own (a task whose executor preference is a one-off `TaskExecutor`), not on
/// the cooperative pool: the caller may itself be a task of the pool, and a pool whose every thread waits here for a
/// job queued behind them would never run it (two parallel tests on a two-core machine were enough).
package func waitForTask<T: Sendable, E: Error>(_ operation: @escaping @Sendable () async throws(E) -> T) throws(E) -> T {
    let executor = DedicatedThreadExecutor(name: "latchkey.waitForTask")
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

#endif
