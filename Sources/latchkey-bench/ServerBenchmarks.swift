import Foundation

enum ServerBenchmarks {
    static let all: [Benchmark] = []
    static let measurements: [Measurement] = []
}
