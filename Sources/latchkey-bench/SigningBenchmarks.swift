import Foundation

enum SigningBenchmarks {
    static let all: [Benchmark] = []
}
