import Foundation
import LatchkeySupport

// Swift concurrency's cooperative pool has as many threads as cores (two here). A test that blocks one of them —
// waiting for a child process, reading a pipe or a socket, a long synchronous loop — holds it for every other test
// of the process: the async work of the rest (an in-process server's handlers, URLSession continuations) waits, and
// on a loaded machine whole suites stall. Blocking work in a test goes through these instead.

/// Runs blocking work on a thread of its own and resumes the caller when it is done, so it never occupies one of the
/// cooperative pool's threads.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result(catching: body)) }.start()
    }
}

/// Runs `body` on `count` real OS threads started together (the cooperative pool has as few threads as cores, which
/// would hide races) and returns their results in order; the caller waits off the pool.
public func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withCheckedContinuation { continuation in
        let results = Locked<[Int: T]>([:])
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for i in 0..<count {
            group.enter()
            Thread {
                start.wait()
                let value = body(i)
                results.withLock { $0[i] = value }
                group.leave()
            }.start()
        }
        for _ in 0..<count { start.signal() }
        group.notify(queue: .global()) {
            continuation.resume(returning: results.withLock { dict in (0..<count).compactMap { dict[$0] } })
        }
    }
}
