import Foundation
import LatchkeyServer

/// `latchkey serve [--host 127.0.0.1] [--port 8080] [--database sqlite:PATH|postgres://...] [--threads N] [--access-log]`
enum ServeCommand {
    static let usage = """
        usage: latchkey serve [--host 127.0.0.1] [--port 8080] [--database sqlite:PATH|postgres://...]
                              [--threads 4] [--access-log] [--issuer URL] [--print-routes]
        Prints `listening on http://HOST:PORT` once bound (port 0 picks a free port); SIGTERM/SIGINT shut it down
        gracefully. --print-routes lists the route table ("METHOD /path" lines) and exits.
        """

    struct Options {
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var database = "sqlite:latchkey.sqlite"
        var threads = 4
        var accessLog = false
        var printRoutes = false
        /// `iss` of access tokens; the bound `http://HOST:PORT` when not given.
        var issuer: String?
    }

    enum Parsed {
        case success(Options)
        case failure(String)
    }

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--host":
                guard let host = value() else { return .failure("--host needs a value") }
                options.host = host
            case "--port":
                guard let text = value(), let port = UInt16(text) else { return .failure("--port needs a number 0...65535") }
                options.port = port
            case "--database":
                guard let database = value(), database.hasPrefix("sqlite:") || database.hasPrefix("postgres://")
                        || database.hasPrefix("postgresql://") else {
                    return .failure("--database needs sqlite:PATH or postgres://...")
                }
                options.database = database
            case "--threads":
                guard let text = value(), let threads = Int(text), (1...64).contains(threads) else {
                    return .failure("--threads needs a number 1...64")
                }
                options.threads = threads
            case "--access-log":
                options.accessLog = true
            case "--issuer":
                guard let issuer = value(), issuer.hasPrefix("http://") || issuer.hasPrefix("https://") else {
                    return .failure("--issuer needs an http(s) URL")
                }
                options.issuer = issuer
            case "--print-routes":
                options.printRoutes = true
            case "--help", "-h":
                return .failure("")
            default:
                return .failure("unknown option '\(arguments[index])'")
            }
            index += 1
        }
        return .success(options)
    }

    /// The auth service behind `latchkey serve`: the database from `--database` (migrated at start) and tokens
    /// issued by `--issuer` or the bound address.
    static func service(_ options: Options, baseURL: String) throws -> AuthService {
        let database = try DatabaseLocation.open(options.database)
        return try AuthService(database: database, configuration: AuthConfiguration(issuer: options.issuer ?? baseURL))
    }

    /// Rotates the signing key when it is due, checked every hour (old keys stay published until their tokens expire).
    static func scheduleKeyRotation(_ service: AuthService) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "latchkey.serve.key-rotation"))
        timer.schedule(deadline: .now() + 3600, repeating: 3600)
        timer.setEventHandler {
            do {
                try service.keyRing.rotateIfDue()
            } catch {
                FileHandle.standardError.write(Data("latchkey serve: key rotation failed: \(error.localizedDescription)\n".utf8))
            }
        }
        timer.resume()
        return timer
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let message):
            let text = message.isEmpty ? usage : "latchkey serve: \(message)\n\(usage)"
            FileHandle.standardError.write(Data((text + "\n").utf8))
            return message.isEmpty ? 0 : 64
        }
        var configuration = HTTPServerConfiguration(host: options.host, port: options.port, threads: options.threads,
                                                    accessLog: options.accessLog ? .standardError : nil)
        configuration.shutdownGracePeriod = .seconds(10)
        do {
            let server = HTTPServer(configuration: configuration)
            if !options.printRoutes { try server.bind() }
            let service = try service(options, baseURL: server.baseURL)
            let router = Router(service.routes())
            if options.printRoutes {
                let table = router.routeTable.map { "\($0.method) \($0.path)\n" }.joined()
                FileHandle.standardOutput.write(Data(table.utf8))
                return 0
            }
            try server.start(router: router)
            let rotation = scheduleKeyRotation(service)
            defer { rotation.cancel() }
            FileHandle.standardOutput.write(Data("listening on \(server.baseURL)\n".utf8))
            let signal = server.runUntilSignal()
            FileHandle.standardError.write(Data("latchkey serve: stopped (signal \(signal))\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("latchkey serve: \(error.localizedDescription)\n".utf8))
            return 1
        }
    }
}
