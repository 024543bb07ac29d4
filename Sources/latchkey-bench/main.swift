import Foundation

// swift run -c release latchkey-bench [--filter NAME] [--list] [--instructions N]
// Every figure is printed with a baseline measured in the same run and the ratio between them.

let usage = """
usage: swift run -c release latchkey-bench [--filter NAME] [--list] [--instructions N] [--help]

  Runs every benchmark (or those whose name contains NAME) and prints each figure next to a raw baseline
  measured in the same run (raw SQLite, raw OpenSSL, nginx) and the ratio between them.

  --filter NAME   run only the figures whose name contains NAME (case-insensitive; "=NAME" for an exact name)
  --list          print the names of every figure and exit
  --instructions N  run each figure's baseline and subject N times for valgrind instruction counts
                  (use scripts/bench-instructions.sh NAME, which runs callgrind and prints per-call counts)
  --help, -h      print this text and exit

  Each figure prints its target and "ok" or "MISS"; a summary of misses ends the run. The HTTP figures
  need `wrk` (and `nginx` for the static-file ceiling): Debian `apt-get install -y wrk nginx-light`, or
  `make bench`, which installs them; without wrk they print NOT RUN and count as misses.
  LATCHKEY_BENCH_POSTGRES=<conninfo> also measures the refresh endpoint on that PostgreSQL database.
  LATCHKEY_BENCH_PY_WEBAUTHN=<python> verifies the passkey figures' bytes with py_webauthn too (`make bench` installs
  it, pinned, into .build/py-webauthn-venv and sets this); without it that figure prints NOT RUN.
  Wall-clock ratios on a small machine swing by tens of percent: compare repeated, interleaved runs.
"""

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
let known: Set<String> = ["--filter", "--list", "--instructions"]
for (index, argument) in arguments.enumerated() where !known.contains(argument) {
    if index > 0, arguments[index - 1] == "--filter" || arguments[index - 1] == "--instructions" { continue }
    FileHandle.standardError.write(Data("latchkey-bench: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
    exit(64)
}
let filter: String? = arguments.firstIndex(of: "--filter").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
if arguments.contains("--filter"), filter == nil {
    FileHandle.standardError.write(Data("latchkey-bench: --filter needs a NAME\n\n\(usage)\n".utf8))
    exit(64)
}

let instructionRuns: Int? = arguments.firstIndex(of: "--instructions").flatMap {
    $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
}
if arguments.contains("--instructions"), (instructionRuns ?? 0) < 1 {
    FileHandle.standardError.write(Data("latchkey-bench: --instructions needs a positive count\n\n\(usage)\n".utf8))
    exit(64)
}

let benchmarks: [Benchmark] = CryptoBenchmarks.all + SigningBenchmarks.all + VaultBenchmarks.all + ServerBenchmarks.all
    + AuthBenchmarks.all + SessionBenchmarks.all + PasskeyBenchmarks.all + SecureEnclaveBenchmarks.all + AppAttestBenchmarks.all
let measurements: [Measurement] = VaultBenchmarks.measurements + ServerBenchmarks.measurements + AuthBenchmarks.measurements
    + ClusterBenchmarks.measurements + PasskeyBenchmarks.measurements

@MainActor func selected(_ name: String) -> Bool {
    guard let filter else { return true }
    if filter.hasPrefix("=") { return name == filter.dropFirst() }
    return name.localizedCaseInsensitiveContains(filter)
}

if arguments.contains("--list") {
    for b in benchmarks { print(b.name) }
    for m in measurements { print(m.name) }
    exit(0)
}

if let instructionRuns {
    for bench in benchmarks where selected(bench.name) { InstructionCount.run(bench, iterations: instructionRuns) }
    exit(0)
}

#if DEBUG
print("warning: debug build; run `swift run -c release latchkey-bench` for real figures")
#endif
for bench in benchmarks where selected(bench.name) { Harness.run(bench) }
for m in measurements where selected(m.name) {
    do { for line in try m.run() { print(line) } } catch {
        Outcomes.miss("\(m.name): failed: \(error)")
        print("\(m.name): failed: \(error)")
    }
}
for line in Outcomes.summary() { print(line) }
