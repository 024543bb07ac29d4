import Foundation

enum CryptoBenchmarks {
    static let all: [Benchmark] = []
}
