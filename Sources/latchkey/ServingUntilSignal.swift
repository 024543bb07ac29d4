import Foundation
import LatchkeyServer

extension HTTPServer {
    /// Prints `listening on http://HOST:PORT` once the signal handlers are in place, serves until SIGTERM/SIGINT, shuts
    /// down gracefully and says so: what `latchkey serve` and `latchkey apple-stand-in` do. The exit code.
    func serveUntilSignal(as command: String) -> Int32 {
        let signal = runUntilSignal {
            FileHandle.standardOutput.write(Data("listening on \(baseURL)\n".utf8))
        }
        FileHandle.standardError.write(Data("latchkey \(command): stopped (signal \(signal))\n".utf8))
        return 0
    }
}
