import Foundation
import LatchkeySupport
import Testing

/// `@Suite(.offCooperativePool)` / `@Test(.offCooperativePool)`: each test case runs with a task executor of its own, a
/// dedicated thread, as its executor preference — its synchronous work (a child process waited for, a pipe or a socket
/// read, a long loop) and the async code it awaits run there, never on one of the cooperative pool's threads, which
/// the other tests of the process (an in-process server's handlers, URLSession continuations) need.
/// For suites whose tests block throughout; a test that blocks in one place can use `onThread` instead.
/// (Before macOS 15 / iOS 18, where task executors do not exist, the test runs as it would without the trait.)
public struct OffCooperativePoolTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Whether the current task already runs under the trait.
    @TaskLocal private static var isActive = false

    /// One scope per test case (each argument of a parameterized test gets a thread of its own).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        if Self.isActive {
            try await function()   // already on a dedicated thread (a suite inside a suite that has the trait)
        } else if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            await dedicatedThreadSlots.acquire()
            let executor = DedicatedThreadExecutor(name: "latchkey.test")
            let outcome: Result<Void, any Error>
            do {
                try await Self.$isActive.withValue(true) {
                    try await withTaskExecutorPreference(executor) { try await function() }
                }
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            executor.finish()
            await dedicatedThreadSlots.release()
            try outcome.get()
        } else {
            try await function()
        }
    }
}

extension Trait where Self == OffCooperativePoolTrait {
    /// Runs each test case on a dedicated thread instead of the cooperative pool (`OffCooperativePoolTrait`).
    public static var offCooperativePool: Self { Self() }
}

/// How many test cases run on dedicated threads at once: twice the pool's width (the cores; they mostly wait),
/// so moving them off the pool does not start every blocking test of the process at the same moment.
private let dedicatedThreadSlots = AsyncSemaphore(width: 2 * max(2, ProcessInfo.processInfo.activeProcessorCount))

/// A counting semaphore whose waiters suspend (no thread blocks).
actor AsyncSemaphore {
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { available = width }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
