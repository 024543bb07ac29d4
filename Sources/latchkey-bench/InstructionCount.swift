import Foundation

/// `--instructions N`: runs each selected figure's baseline and subject N times each (after N/4 warm-up calls),
/// inside two functions that `scripts/bench-instructions.sh` points valgrind's callgrind at
/// (`--toggle-collect`), so the collected instruction count divided by N is the cost of one call.
/// Instruction counts do not swing with the other core's load the way wall-clock ratios do.
enum InstructionCount {
    static func run(_ bench: Benchmark, iterations: Int) {
        do {
            let pair = try bench.setUp()
            defer { pair.tearDown() }
            for _ in 0..<max(1, iterations / 4) { try pair.baseline(); try pair.subject() }
            try callgrindBaselineLoop(pair.baseline, iterations)
            try callgrindSubjectLoop(pair.subject, iterations)
            print("\(bench.name): \(iterations) calls of each side measured")
        } catch {
            print("\(bench.name): failed: \(error)")
        }
    }
}

// The names are what the callgrind script toggles on; keep them unique and out of line. The two loops are
// written differently so the optimizer cannot merge them into one function (which would hide one name).
@inline(never) func callgrindBaselineLoop(_ body: () throws -> Void, _ count: Int) throws {
    for _ in 0..<count { try body() }
}

@inline(never) func callgrindSubjectLoop(_ body: () throws -> Void, _ count: Int) throws {
    var remaining = count
    while remaining > 0 {
        try body()
        remaining -= 1
    }
}
