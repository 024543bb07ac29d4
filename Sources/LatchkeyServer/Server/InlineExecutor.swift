import Foundation
import LatchkeySupport

/// The task executor a request's handler starts on: its jobs run on the libmicrohttpd thread that received
/// the request, for as long as that thread is draining them. When the handler truly suspends (an Argon2 hash on
/// a hashing queue, a sleep, I/O) the queue runs dry, the thread stops draining, and every later job is
/// forwarded to the global concurrent executor. A handler that never suspends is thus answered without any
/// thread hop or connection suspend/resume.
///
/// `@unchecked Sendable`: all mutable state is behind `state`'s mutex.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class InlineExecutor: TaskExecutor, @unchecked Sendable {
    struct State {
        var jobs: [UnownedJob] = []
        var forwarding = false
    }

    let state = Locked<State>(State())

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let forward = state.withLock { state in
            if state.forwarding { return true }
            state.jobs.append(job)
            return false
        }
        if forward { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Runs queued jobs on the calling thread until none is left, then switches to forwarding.
    func drain() {
        let executor = asUnownedTaskExecutor()
        while true {
            let next: UnownedJob? = state.withLock { state in
                if state.jobs.isEmpty {
                    state.forwarding = true
                    return nil
                }
                return state.jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: executor)
        }
    }
}
