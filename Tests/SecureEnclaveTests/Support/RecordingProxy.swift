import Foundation
import Glibc
import LatchkeySupport
import LatchkeyTPM

/// A loopback TCP proxy in front of a swtpm that records every byte both ways: what tpm2-tss's swtpm TCTI sends to the
/// TPM and gets back (the command port and, on the next port, the control channel), to check what crosses it.
final class RecordingProxy: @unchecked Sendable { // `recorded` is Locked; the descriptors are written once in init
    /// The TCTI configuration that goes through the proxy.
    let tcti: String
    private let listeners: [Int32]
    private let recorded = Locked(Data())

    /// Everything recorded so far, both directions.
    var traffic: Data { recorded.withLock { $0 } }

    init(to tpm: SoftwareTPM) throws {
        for _ in 0..<40 {
            let port = Int.random(in: 20_000..<60_000)
            guard let command = Self.listen(port) else { continue }
            guard let control = Self.listen(port + 1) else { close(command); continue }
            listeners = [command, control]
            tcti = "swtpm:host=127.0.0.1,port=\(port)"
            for (listener, target) in [(command, tpm.port), (control, tpm.port + 1)] {
                Thread { [self] in accept(listener, forwardingTo: target) }.start()
            }
            return
        }
        throw SoftwareTPMError.noPort
    }

    /// Stops accepting: the listeners are shut down, which ends their accept threads (each closes its listener on the
    /// way out, so the descriptor number cannot be reused by another test while still in use here). The threads hold
    /// the proxy, so without this nothing would ever end them. Connections in flight end when their client closes.
    func stop() { listeners.forEach { shutdown($0, Int32(SHUT_RDWR)) } }

    private static func listen(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, PortableSocket.stream, 0)
        guard fd >= 0 else { return nil }
        var address = Self.loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else { close(fd); return nil }
        return fd
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func accept(_ listener: Int32, forwardingTo port: Int) {
        defer { close(listener) }
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { return }  // the listener was shut down (`stop()`)
            let server = socket(AF_INET, PortableSocket.stream, 0)
            var address = Self.loopback(port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            let both = DispatchGroup()
            for (source, destination) in [(client, server), (server, client)] {
                both.enter()
                Thread { [self] in
                    pump(from: source, to: destination)
                    both.leave()
                }.start()
            }
            both.notify(queue: .global()) { close(client); close(server) }
        }
    }

    /// Copies until the source ends, recording; then ends the destination's direction.
    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            recorded.withLock { $0.append(contentsOf: buffer[0..<count]) }
            var offset = 0
            while offset < count {
                let sent = buffer.withUnsafeBytes { raw in
                    raw.baseAddress.map { PortableSocket.send(destination, $0 + offset, count - offset) } ?? -1
                }
                if sent <= 0 { break reading }
                offset += sent
            }
        }
        shutdown(destination, Int32(SHUT_WR))
    }
}
