import Foundation

/// Command-line options and environment of `latchkey vault`.
struct VaultOptions {
    var vaultURL: URL
    var timeout: TimeInterval = 300
    var command: [String] = []

    static let usage = """
    usage: latchkey vault [--vault PATH] [--timeout SECONDS] [command]

    The secure-notes sample app. Without a command (on a terminal) it starts an interactive session.
      setup                 create the account (user name and password)
      unlock                unlock with Touch ID (falls back to the password) and start a session
      lock                  lock now (end the session)
      status                biometry type, lockout state, session, integrity findings
      list                  list the notes
      show TITLE            print a note
      add --title TITLE     add a note; the body is read from stdin
      edit TITLE            replace a note's body (read from stdin)
      delete TITLE          delete a note
      biometrics on|off     use Touch ID to unlock (asks the password once) / stop using it
      passwd                change the password
      shell                 the interactive session

    Environment: LATCHKEY_VAULT (vault path), LATCHKEY_VAULT_TIMEOUT (idle timeout, seconds),
    LATCHKEY_AUTH_BACKEND=simulated|pam with LATCHKEY_SIMULATOR_STATE (the simulated sensor's control file),
    LATCHKEY_VAULT_DEVICE_KEY=file|secret-service|kernel-keyring (where the vault's device key lives).
    Exit codes: 0 ok, 1 failure, 44 no such note, 45 duplicate title, 64 usage, 69 unavailable,
    77 authentication failed or canceled.
    """

    static func parse(_ arguments: [String], environment: [String: String]) throws(VaultUsageError) -> VaultOptions {
        var options = VaultOptions(vaultURL: defaultURL(environment))
        if let text = environment["LATCHKEY_VAULT_TIMEOUT"], !text.isEmpty {
            guard let seconds = TimeInterval(text), seconds > 0 else { throw VaultUsageError("bad LATCHKEY_VAULT_TIMEOUT") }
            options.timeout = seconds
        }
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("--") {
            rest = rest.dropFirst()
            switch first {
            case "--vault":
                guard let path = rest.popFirst(), !path.isEmpty else { throw VaultUsageError("--vault needs a path") }
                options.vaultURL = URL(fileURLWithPath: path)
            case "--timeout":
                guard let text = rest.popFirst(), let seconds = TimeInterval(text), seconds > 0 else {
                    throw VaultUsageError("--timeout needs a number of seconds")
                }
                options.timeout = seconds
            case "--help":
                options.command = ["help"]
                return options
            default:
                throw VaultUsageError("unknown option \(first)")
            }
        }
        options.command = Array(rest)
        return options
    }

    static func defaultURL(_ environment: [String: String]) -> URL {
        if let path = environment["LATCHKEY_VAULT"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: base).appendingPathComponent("latchkey/notes.vault")
    }
}

struct VaultUsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
