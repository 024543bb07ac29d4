import Dispatch
import Foundation
import Latchkey

/// `latchkey vault`: the secure-notes sample app (see `VaultOptions.usage`).
enum VaultCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let options: VaultOptions
        do {
            options = try VaultOptions.parse(arguments, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("latchkey vault: \(error.message)\n\n\(VaultOptions.usage)\n".utf8))
            return 64
        }
        if options.command.first == "help" {
            print(VaultOptions.usage)
            return 0
        }
        // AppLock lives on the main actor: run the app there and keep the main queue serving it.
        Task { @MainActor in
            let code = await main(options, environment: environment)
            exit(code)
        }
        dispatchMain()
    }

    @MainActor
    private static func main(_ options: VaultOptions, environment: [String: String]) async -> Int32 {
        let app: VaultApp
        do {
            app = try VaultApp(options: options, environment: environment)
        } catch {
            guard case .vault(let message) = error else { return 1 }
            FileHandle.standardError.write(Data("latchkey vault: cannot open the vault: \(message)\n".utf8))
            return 69
        }
        app.warnAboutIntegrity()
        var words = options.command[...]
        let command = words.popFirst() ?? (app.console.isInteractive ? "shell" : "list")
        let rest = Array(words)
        switch command {
        case "shell": return await app.shell()
        case "setup": return await app.setup()
        case "status": return app.status()
        case "lock":
            await app.launchIfNeeded()
            app.appLock.lock()
            app.console.note("Vault locked.")
            return 0
        case "biometrics": return await app.biometrics(rest)
        default: break
        }
        // Everything else needs the vault unlocked.
        let knownCommands = ["unlock", "list", "show", "add", "edit", "delete", "passwd"]
        guard knownCommands.contains(command) else {
            FileHandle.standardError.write(Data("latchkey vault: unknown command '\(command)'\n\n\(VaultOptions.usage)\n".utf8))
            return 64
        }
        let readsBody = command == "add" || command == "edit"
        guard await app.ensureUnlocked(preferTerminalForPassword: readsBody) else { return 77 }
        switch command {
        case "unlock": return 0
        case "list": return app.list()
        case "show":
            guard let title = rest.first else { return usage("show TITLE") }
            return app.show(title)
        case "add":
            guard rest.count == 2, rest[0] == "--title" else { return usage("add --title TITLE < body") }
            return app.add(title: rest[1], body: app.console.readAll())
        case "edit":
            guard let title = rest.first else { return usage("edit TITLE < body") }
            return app.edit(title: title, body: app.console.readAll())
        case "delete":
            guard let title = rest.first else { return usage("delete TITLE") }
            return app.delete(title)
        case "passwd": return app.changePassword()
        default: return 64
        }
    }

    private static func usage(_ text: String) -> Int32 {
        FileHandle.standardError.write(Data("usage: latchkey vault \(text)\n".utf8))
        return 64
    }
}
