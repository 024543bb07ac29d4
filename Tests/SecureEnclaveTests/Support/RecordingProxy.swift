import Foundation
import Glibc
import LatchkeySupport
import LatchkeyTPM
import LatchkeyTestSupport

/// A loopback TCP proxy in front of a swtpm that records every byte both ways: what tpm2-tss's swtpm TCTI sends to the
/// TPM and gets back (the command port and, on the next port, the control channel), to check what crosses it.
final class RecordingProxy: Sendable {
    /// The TCTI configuration that goes through the proxy.
    let tcti: String
    private let listeners: [LoopbackListener]
    private let recorded = Locked(Data())

    /// Everything recorded so far, both directions.
    var traffic: Data { recorded.withLock { $0 } }

    init(to tpm: SoftwareTPM) throws {
        let recorded = recorded
        for _ in 0..<40 {
            let port = UInt16.random(in: 20_000..<60_000)
            guard let command = try? LoopbackListener(port: port, backlog: 8, connection: { client in
                Self.forward(client, to: tpm.port, recording: recorded)
            }) else { continue }
            guard let control = try? LoopbackListener(port: port + 1, backlog: 8, connection: { client in
                Self.forward(client, to: tpm.port + 1, recording: recorded)
            }) else {
                command.stop()
                continue
            }
            listeners = [command, control]
            tcti = "swtpm:host=127.0.0.1,port=\(port)"
            return
        }
        throw SoftwareTPMError.noPort
    }

    /// Stops accepting (`LoopbackListener.stop()`). Connections in flight end when their client closes.
    func stop() { listeners.forEach { $0.stop() } }

    /// Connects `client` to the TPM's `port` and copies both ways on two threads of their own.
    private static func forward(_ client: Int32, to port: Int, recording recorded: Locked<Data>) {
        let server = socket(AF_INET, PortableSocket.stream, 0)
        guard server >= 0, PortableSocket.connectLoopback(server, port: UInt16(port)) else {
            close(client)
            if server >= 0 { close(server) }
            return
        }
        let both = DispatchGroup()
        for (source, destination) in [(client, server), (server, client)] {
            both.enter()
            Thread {
                pump(from: source, to: destination, recording: recorded)
                both.leave()
            }.start()
        }
        both.notify(queue: .global()) { close(client); close(server) }
    }

    /// Copies until the source ends, recording; then ends the destination's direction.
    private static func pump(from source: Int32, to destination: Int32, recording recorded: Locked<Data>) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { PortableSocket.receive(source, into: $0) }
            if count <= 0 { break }
            recorded.withLock { $0.append(contentsOf: buffer[0..<count]) }
            let sent = buffer.withUnsafeBytes { PortableSocket.sendAll(destination, UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if sent < count { break }
        }
        shutdown(destination, Int32(SHUT_WR))
    }
}
