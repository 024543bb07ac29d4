import Foundation
import LatchkeySupport

/// One figure: a subject measured against a baseline in the same run, printed with their ratio.
///
/// `baseline` and `subject` each run one operation per call; the harness calibrates the batch size,
/// takes several rounds, and reports the best round (least disturbed by the other core's load).
struct Benchmark: Sendable {
    let name: String
    let baselineName: String
    let unit: Unit
    /// Ratio above which the figure is flagged (for example 1.05 = the wrapper may cost 5 %).
    let target: Double?
    /// Time per operation above which the figure is flagged too (nanoseconds), if any.
    var absoluteLimit: Double? = nil
    let setUp: @Sendable () throws -> Pair

    init(name: String, baselineName: String, unit: Unit, target: Double?, absoluteLimit: Double? = nil,
         setUp: @escaping @Sendable () throws -> Pair) {
        self.name = name; self.baselineName = baselineName; self.unit = unit; self.target = target
        self.absoluteLimit = absoluteLimit; self.setUp = setUp
    }

    enum Unit: Sendable { case timePerOperation, operationsPerSecond }

    struct Pair: Sendable {
        let baseline: @Sendable () throws -> Void
        let subject: @Sendable () throws -> Void
        let tearDown: @Sendable () -> Void
        init(baseline: @escaping @Sendable () throws -> Void, subject: @escaping @Sendable () throws -> Void,
             tearDown: @escaping @Sendable () -> Void = {}) {
            self.baseline = baseline; self.subject = subject; self.tearDown = tearDown
        }
    }
}

/// A figure that measures itself (load tests against a server, latency percentiles).
struct Measurement: Sendable {
    let name: String
    let run: @Sendable () throws -> [String]
}

/// Figures that missed their target or could not run, for the summary printed at the end.
enum Outcomes {
    private static let misses = Locked<[String]>([])

    static func miss(_ line: String) { misses.withLock { $0.append(line) } }

    /// "all figures at target", or one line per miss.
    static func summary() -> [String] {
        let all = misses.withLock { $0 }
        guard !all.isEmpty else { return ["summary: every figure run is at its target"] }
        return ["summary: \(all.count) figure(s) missed their target or did not run:"] + all.map { "  - \($0)" }
    }
}

/// "ok (target ≤ 1.1x)" or "MISS (target ≤ 1.1x)", recording a miss.
func verdict(_ name: String, _ ok: Bool, _ target: String) -> String {
    if !ok { Outcomes.miss("\(name) (target \(target))") }
    return ok ? "ok (target \(target))" : "MISS (target \(target))"
}

enum Clock {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

enum Harness {
    /// Seconds spent per round per side; rounds alternate baseline and subject.
    static let roundSeconds = 0.2
    static let rounds = 7

    /// Operations per round so that one round of `body` lasts about `roundSeconds`.
    static func calibrate(_ body: () throws -> Void) throws -> Int {
        var batch = 1
        while true {
            let start = Clock.now()
            for _ in 0..<batch { try body() }
            let elapsed = Double(Clock.now() - start)
            if elapsed > roundSeconds * 1e9 / 4 || batch >= 1 << 24 {
                return max(1, Int(Double(batch) * roundSeconds * 1e9 / max(elapsed, 1)))
            }
            batch *= 4
        }
    }

    static func round(_ body: () throws -> Void, _ batch: Int) throws -> Double {
        let start = Clock.now()
        for _ in 0..<batch { try body() }
        return Double(Clock.now() - start) / Double(batch)
    }

    /// Nanoseconds per operation of baseline and subject, the best of `rounds` rounds each.
    /// Rounds alternate (baseline, subject, baseline, ...) so that a burst of load from the other core
    /// hits both sides alike instead of skewing the ratio.
    static func timePair(baseline: () throws -> Void, subject: () throws -> Void) throws -> (Double, Double) {
        let baseBatch = try calibrate(baseline), subjectBatch = try calibrate(subject)
        var base = Double.infinity, subj = Double.infinity
        for _ in 0..<rounds {
            base = min(base, try round(baseline, baseBatch))
            subj = min(subj, try round(subject, subjectBatch))
        }
        return (base, subj)
    }

    static func run(_ bench: Benchmark) {
        do {
            let pair = try bench.setUp()
            defer { pair.tearDown() }
            let (base, subject) = try timePair(baseline: pair.baseline, subject: pair.subject)
            let ratio = subject / base
            var flag = ""
            if let target = bench.target { flag = "  " + verdict(bench.name, ratio <= target, "≤ \(target)x") }
            print(line(bench.name, subject: subject, base: base, baselineName: bench.baselineName, unit: bench.unit)
                  + String(format: "  ratio %.3fx", ratio) + flag)
        } catch let BenchError.skipped(reason) {
            print("\(bench.name): skipped: \(reason)")
        } catch {
            print("\(bench.name): failed: \(error)")
        }
    }

    static func line(_ name: String, subject: Double, base: Double, baselineName: String, unit: Benchmark.Unit) -> String {
        switch unit {
        case .timePerOperation:
            return "\(name): \(format(ns: subject))/op  vs \(baselineName): \(format(ns: base))/op"
        case .operationsPerSecond:
            return String(format: "%@: %.0f/s  vs %@: %.0f/s", name, 1e9 / subject, baselineName, 1e9 / base)
        }
    }

    static func format(ns: Double) -> String {
        if ns >= 1e6 { return String(format: "%.2f ms", ns / 1e6) }
        if ns >= 1e3 { return String(format: "%.2f µs", ns / 1e3) }
        return String(format: "%.0f ns", ns)
    }
}
