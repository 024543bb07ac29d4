import Foundation

/// Runs async work from the synchronous CLI entry points (a prompt, an evaluation) and waits for it.
func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T? {
    let box = BlockingBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await work()
        done.signal()
    }
    done.wait()
    return box.value
}

/// Carries a task's result to the waiting thread.
private final class BlockingBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: written once by the task before the semaphore is signalled, read after the wait.
    var value: T?
}
