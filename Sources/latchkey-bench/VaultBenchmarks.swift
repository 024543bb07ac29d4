import Foundation

enum VaultBenchmarks {
    static let all: [Benchmark] = []
}
