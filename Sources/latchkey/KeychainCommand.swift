import Foundation
import Latchkey

/// `latchkey keychain <subcommand>`: the item commands a user of macOS `security` expects, over the
/// FileVault (default) or the Secret Service. Output on stdout, messages on stderr, exit codes per CLIUsage.
enum KeychainCommand {
    static let usage = """
    usage: latchkey keychain [--vault PATH] [--backend vault|secret-service] [--passphrase-fd N] <command>

      add-generic-password  -s SERVICE -a ACCOUNT -w [PASSWORD] [-U] [-l LABEL] [-j COMMENT] [-D KIND] [-G VALUE]
      find-generic-password [-s SERVICE] [-a ACCOUNT] [-l LABEL] [-w]
      delete-generic-password [-s SERVICE] [-a ACCOUNT] [-l LABEL]
      add-internet-password -s SERVER -a ACCOUNT [-r PROTOCOL] [-P PORT] [-p PATH] [-d DOMAIN] [-t AUTHTYPE]
                            -w [PASSWORD] [-U] [-l LABEL] [-j COMMENT]
      find-internet-password [-s SERVER] [-a ACCOUNT] [-r PROTOCOL] [-P PORT] [-p PATH] [-d DOMAIN] [-w]
      delete-internet-password [-s SERVER] [-a ACCOUNT] [-r PROTOCOL] [-P PORT] [-p PATH] [-d DOMAIN]
      dump                  list every item's attributes (never secrets)
      lock                  forget the unlocked vault key cached by `unlock`
      unlock                ask for the passphrase and keep the vault open for 15 minutes
      status                which store and key protection are in use and why, the application identifier and
                            whether a TPM is in use for SecureEnclave keys (opens nothing)

      -w without a value (as the last option) prompts for the password without echoing it; on a pipe it
      reads one line. -U updates an existing item in place instead of failing with exit code 45.
      The vault (default $XDG_DATA_HOME/latchkey/default.vault, or $LATCHKEY_VAULT) keeps the protection it
      was created with. A new one is protected by the login keyring when one runs, otherwise by the device
      key file ($XDG_DATA_HOME/latchkey/device.key, 0600). LATCHKEY_KEYCHAIN=keyring|file|passphrase chooses
      instead; a passphrase is prompted for, or read from --passphrase-fd N. Secrets are never taken from
      the environment.
    """

    static let globalOptions: [String: KeychainArguments.Arity] = [
        "vault": .value, "backend": .value, "passphrase-fd": .value, "h": .flag, "help": .flag,
    ]

    static func run(_ arguments: [String]) -> Int32 {
        let (command, rest) = splitCommand(arguments)
        guard let command, command != "help" else {
            print(usage)
            return command == nil && !arguments.contains(where: { $0 == "-h" || $0 == "--help" }) ? 64 : 0
        }
        guard let subcommand = KeychainSubcommand(rawValue: command) else {
            return fail("unknown keychain command '\(command)'\n\n\(usage)", code: 64)
        }
        do {
            let parsed = try KeychainArguments(rest, spec: globalOptions.merging(subcommand.options) { a, _ in a })
            if parsed.has("h") || parsed.has("help") {
                print(usage)
                return 0
            }
            let access = try KeychainVaultAccess(arguments: parsed)
            return try subcommand.run(parsed, access: access)
        } catch let error as KeychainArguments.UsageError {
            return fail("\(error.message)\n\n\(usage)", code: 64)
        } catch let error as KeychainStoreError {
            return fail(error.localizedDescription, code: KeychainExitCode.code(for: error.status))
        } catch let error as KeychainCLIError {
            return fail(error.localizedDescription, code: error.exitCode)
        } catch TerminalInput.Failure.endOfInput {
            return fail(KeychainCLIError.noPassword.localizedDescription, code: 77)
        } catch {
            return fail(error.localizedDescription, code: 1)
        }
    }

    /// The first argument that is not a global option (or its value) is the command.
    static func splitCommand(_ arguments: [String]) -> (String?, [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.drop { $0 == "-" })
            if argument.hasPrefix("-") {
                if globalOptions[name] == .value { index += 1 }
                index += 1
                continue
            }
            var rest = arguments
            rest.remove(at: index)
            return (argument, rest)
        }
        return (nil, arguments)
    }

    static func fail(_ message: String, code: Int32) -> Int32 {
        FileHandle.standardError.write(Data("latchkey: \(message)\n".utf8))
        return code
    }
}

/// The keychain subcommands.
enum KeychainSubcommand: String {
    case addGenericPassword = "add-generic-password"
    case findGenericPassword = "find-generic-password"
    case deleteGenericPassword = "delete-generic-password"
    case addInternetPassword = "add-internet-password"
    case findInternetPassword = "find-internet-password"
    case deleteInternetPassword = "delete-internet-password"
    case dump
    case lock
    case unlock
    case status

    var itemClass: ItemClass {
        switch self {
        case .addInternetPassword, .findInternetPassword, .deleteInternetPassword: .internetPassword
        default: .genericPassword
        }
    }

    var options: [String: KeychainArguments.Arity] {
        let identity: [String: KeychainArguments.Arity] = itemClass == .genericPassword
            ? ["s": .value, "a": .value, "l": .value]
            : ["s": .value, "a": .value, "l": .value, "r": .value, "P": .value, "p": .value, "d": .value, "t": .value]
        switch self {
        case .addGenericPassword, .addInternetPassword:
            return identity.merging(["w": .optionalValue, "U": .flag, "j": .value, "D": .value, "G": .value,
                                     "T": .value, "A": .flag, "require": .value]) { a, _ in a }
        case .findGenericPassword, .findInternetPassword:
            return identity.merging(["w": .flag, "g": .flag]) { a, _ in a }
        case .deleteGenericPassword, .deleteInternetPassword:
            return identity
        case .dump, .lock, .unlock, .status:
            return [:]
        }
    }

    func run(_ arguments: KeychainArguments, access: KeychainVaultAccess) throws -> Int32 {
        if let extra = arguments.positional.first {
            throw KeychainArguments.UsageError(message: "unexpected argument '\(extra)'")
        }
        switch self {
        case .addGenericPassword, .addInternetPassword:
            return try KeychainItemCommands.add(arguments, itemClass: itemClass, access: access)
        case .findGenericPassword, .findInternetPassword:
            return try KeychainItemCommands.find(arguments, itemClass: itemClass, access: access)
        case .deleteGenericPassword, .deleteInternetPassword:
            return try KeychainItemCommands.delete(arguments, itemClass: itemClass, access: access)
        case .dump:
            return try KeychainItemCommands.dump(access: access)
        case .lock:
            FileHandle.standardError.write(Data((try access.lockSession() + "\n").utf8))
            return 0
        case .unlock:
            FileHandle.standardError.write(Data((try access.unlockSession() + "\n").utf8))
            return 0
        case .status:
            print(try access.status())
            return 0
        }
    }
}
