import Foundation
import LatchkeySupport

/// Runs `body(thread)` on `count` threads of their own at once (a dispatch pool would run only one per core)
/// and returns the sum of the failures each reports.
func failuresOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Int) -> Int {
    let failures = Locked(0)
    let group = DispatchGroup()
    for thread in 0..<count {
        group.enter()
        Thread {
            defer { group.leave() }
            let failed = body(thread)
            failures.withLock { $0 += failed }
        }.start()
    }
    group.wait()
    return failures.withLock { $0 }
}
