import Foundation
import LatchkeySupport
import LatchkeyTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The tests' loopback listener: a client that resets before it is accepted does not end it, and stopping it twice
/// touches nothing (a second `shutdown(2)` on its freed descriptor number once hit another suite's URLSession
/// connection — "Empty reply from server" — or Foundation's process-monitoring socket, which hung the run).
@Suite(.offCooperativePool)
struct LoopbackListenerTests {
    /// Connects to 127.0.0.1:`port`; nil when refused.
    static func connectTo(_ port: UInt16) -> Int32? {
        let fd = socket(AF_INET, PortableSocket.stream, 0)
        guard fd >= 0 else { return nil }
        guard PortableSocket.connectLoopback(fd, port: port) else {
            close(fd)
            return nil
        }
        return fd
    }

    /// One byte read from `fd`; nil at its end or on an error.
    static func readByte(_ fd: Int32) -> UInt8? {
        var byte: UInt8 = 0
        let count = withUnsafeMutableBytes(of: &byte) { PortableSocket.receive(fd, into: $0) }
        return count == 1 ? byte : nil
    }

    /// Writes one byte to `fd`: whether it went out.
    static func writeByte(_ fd: Int32, _ byte: UInt8) -> Bool {
        withUnsafeBytes(of: byte) { PortableSocket.sendAll(fd, $0) } == 1
    }

    @Test func aResetClientDoesNotEndItAndStoppingTwiceIsHarmless() async throws {
        let served = Locked(0)
        let listener = try LoopbackListener { connection in
            if let byte = Self.readByte(connection) {
                served.withLock { $0 += 1 }
                _ = Self.writeByte(connection, byte)
            }
            close(connection)
        }
        // A client that connects and resets at once (SO_LINGER 0).
        let resetting = try #require(Self.connectTo(listener.port))
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(resetting, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(resetting)

        // The next client is still served.
        let client = try #require(Self.connectTo(listener.port))
        #expect(Self.writeByte(client, 42))
        #expect(Self.readByte(client) == 42)
        #expect(served.withLock { $0 } == 1)
        close(client)

        listener.stop()
        // A socket of this test's, made after the listener closed its descriptor, is untouched by a second stop.
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, PortableSocket.stream, 0, &pair) == 0)
        listener.stop()
        #expect(Self.writeByte(pair[0], 7))
        #expect(Self.readByte(pair[1]) == 7)
        pair.forEach { close($0) }
    }
}
