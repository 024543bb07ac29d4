import Foundation

/// A task executor running its jobs, in order, on one thread it starts, off Swift concurrency's cooperative pool:
/// for work that blocks its thread (`waitForTask`; tests that wait for processes or sockets). The thread ends after
/// `finish()` once the queue is empty; a job enqueued after that (a straggler) runs on a thread of its own.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable { // every field is guarded by `condition`
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var threadEnded = false

    package init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if threadEnded {
            condition.unlock()
            Thread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }.start()
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run every job queued so far.
    package func finish() {
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
                threadEnded = true
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
