import Foundation
import LatchkeyCrypto
import LatchkeyServer

/// `latchkey apple-stand-in`: the development stand-in for appleid.apple.com (`AppleIDStandIn`) on loopback.
enum AppleStandInCommand {
    static let usage = """
        usage: latchkey apple-stand-in [--host 127.0.0.1] [--port 0] [--client-id ID]...
                                       [--team-id ID --key-id ID --team-key PUBLIC.pem]
        A stand-in for appleid.apple.com for development and tests. NEVER FOR PRODUCTION: it signs Sign in with Apple
        identity tokens for whoever asks. Prints `listening on http://HOST:PORT` once bound (port 0 picks a free port);
        SIGTERM/SIGINT stop it. Point `latchkey serve --apple-base-url` at it, and the Linux AuthenticationServices
        module with LATCHKEY_APPLE_ID_AUTHORITY=http://HOST:PORT (LATCHKEY_APPLE_CLIENT_ID=ID).
        --client-id (repeatable) are the apps it signs for (default: any). --team-key is the public half of the team's
        Sign in with Apple key (.p8), for checking the client secrets of /auth/token and /auth/revoke; without it they
        are only read, not verified.
        Endpoints: GET /auth/keys, POST /auth/token, POST /auth/revoke (Apple's); POST /dev/authorize,
        GET /dev/credential-state, POST /dev/revoke (what a device and its user do); GET /dev/revocations (the
        /auth/revoke calls it accepted: client_id, token_type_hint, and user when it issued the token).
        """

    static let options: [String: KeychainArguments.Arity] = [
        "host": .value, "port": .value, "client-id": .value, "team-id": .value, "key-id": .value, "team-key": .value,
        "h": .flag, "help": .flag,
    ]

    /// The stand-in's configuration from `arguments`; nil when help was asked for.
    static func parseConfiguration(_ arguments: [String]) throws -> AppleIDStandIn.Configuration? {
        let parsed = try KeychainArguments(arguments, spec: options)
        if parsed.has("h") || parsed.has("help") { return nil }
        var configuration = AppleIDStandIn.Configuration(clientIDs: Set(parsed.repeated("client-id")))
        configuration.host = parsed.value("host") ?? configuration.host
        if let text = parsed.value("port") {
            guard let port = UInt16(text) else { throw KeychainArguments.UsageError(message: "--port needs a number 0...65535") }
            configuration.port = port
        }
        let team = [parsed.value("team-id"), parsed.value("key-id"), parsed.value("team-key")]
        if team.contains(where: { $0 != nil }) {
            guard case let (teamID?, keyID?, keyFile?) = (team[0], team[1], team[2]) else {
                throw KeychainArguments.UsageError(message: "--team-id, --key-id and --team-key go together")
            }
            guard let pem = try? String(contentsOfFile: keyFile, encoding: .utf8),
                  let key = try? P256.Signing.PublicKey(pemRepresentation: pem) else {
                throw KeychainArguments.UsageError(message: "--team-key: not a readable P-256 public key (PEM)")
            }
            configuration.teamKeys = [AppleIDStandIn.TeamKey(teamID: teamID, keyID: keyID, publicKey: key)]
        }
        return configuration
    }

    static func run(_ arguments: [String]) -> Int32 {
        let configuration: AppleIDStandIn.Configuration
        do {
            guard let parsed = try parseConfiguration(arguments) else {
                print(usage)
                return 0
            }
            configuration = parsed
        } catch let error as KeychainArguments.UsageError {
            FileHandle.standardError.write(Data("latchkey apple-stand-in: \(error.message)\n\(usage)\n".utf8))
            return 64
        } catch {
            FileHandle.standardError.write(Data("latchkey apple-stand-in: \(error.localizedDescription)\n".utf8))
            return 64
        }
        do {
            let standIn = try AppleIDStandIn(configuration: configuration)
            try standIn.start()
            FileHandle.standardError.write(Data(
                "latchkey apple-stand-in: a development stand-in for appleid.apple.com; never use it in production\n".utf8))
            return standIn.server.serveUntilSignal(as: "apple-stand-in")
        } catch {
            FileHandle.standardError.write(Data("latchkey apple-stand-in: \(error.localizedDescription)\n".utf8))
            return 1
        }
    }
}
