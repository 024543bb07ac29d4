import Foundation

// swift run -c release latchkey-bench [--filter NAME] [--list]
// Every figure is printed with a baseline measured in the same run and the ratio between them.

let arguments = Array(CommandLine.arguments.dropFirst())
let filter: String? = arguments.firstIndex(of: "--filter").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }

let benchmarks: [Benchmark] = CryptoBenchmarks.all + SigningBenchmarks.all + VaultBenchmarks.all + ServerBenchmarks.all
    + AuthBenchmarks.all
let measurements: [Measurement] = ServerBenchmarks.measurements + AuthBenchmarks.measurements

@MainActor func selected(_ name: String) -> Bool {
    guard let filter else { return true }
    return name.localizedCaseInsensitiveContains(filter)
}

if arguments.contains("--list") {
    for b in benchmarks { print(b.name) }
    for m in measurements { print(m.name) }
    exit(0)
}

#if DEBUG
print("warning: debug build; run `swift run -c release latchkey-bench` for real figures")
#endif
for bench in benchmarks where selected(bench.name) { Harness.run(bench) }
for m in measurements where selected(m.name) {
    do { for line in try m.run() { print(line) } } catch { print("\(m.name): failed: \(error)") }
}
