import Foundation
import LatchkeyCrypto
import Testing

@Suite struct RandomTests {
    @Test(arguments: [1, 12, 16, 32, 1000, 65536])
    func bytesHaveTheRequestedLength(_ count: Int) {
        #expect(SecureRandom.bytes(count: count).count == count)
    }

    @Test func nonPositiveCountsGiveEmptyData() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        #expect(SecureRandom.bytes(count: -1).isEmpty)
    }

    @Test func successiveOutputsDiffer() {
        let a = SecureRandom.bytes(count: 32)
        let b = SecureRandom.bytes(count: 32)
        #expect(a != b)
        #expect(a != Data(count: 32))
    }

    @Test func fillWritesTheWholeBuffer() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        buffer.withUnsafeMutableBytes { SecureRandom.fill($0) }
        // 4096 random bytes are never all zero, and every byte value shows up with overwhelming probability.
        #expect(buffer.contains { $0 != 0 })
        #expect(Set(buffer).count > 200)
        // An empty buffer is a no-op.
        var empty: [UInt8] = []
        empty.withUnsafeMutableBytes { SecureRandom.fill($0) }
    }

    @Test func concurrentUseIsSafe() async {
        let results = await withTaskGroup(of: Data.self) { group in
            for _ in 0..<16 { group.addTask { SecureRandom.bytes(count: 16) } }
            var all: [Data] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(Set(results).count == 16)
    }
}
