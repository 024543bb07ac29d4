import Dispatch
import Foundation
import Latchkey
#if canImport(Glibc)
import Glibc
#endif

extension VaultApp {
    /// The interactive session: a line-based prompt; locks after the idle timeout and on SIGTSTP / SIGHUP.
    func shell() async -> Int32 {
        if !login.hasAccount {
            let code = await setup()
            guard code == 0 else { return code }
        }
        let lockRequest = VaultFlag()
        let watchers = Self.installLockWatchers(lockRequest, sessions: sessions, timeout: options.timeout)
        defer { watchers.forEach { $0.cancel() } }

        console.say("Latchkey Vault — \(login.username ?? "") · \(authenticator.biometryType == .none ? "no biometry" : biometryName)"
                    + " · type `help` for commands")
        while true {
            if lockRequest.take() { appLock.lock() }
            if appLock.state != .unlocked || appLock.lockIfIdle() {
                if launchedBefore { console.note("Vault locked.") }
                guard await ensureUnlocked() else { return 77 }
            }
            launchedBefore = true
            guard let line = console.readLine(prompt: "vault> ") else {
                console.say("")
                return 0
            }
            if lockRequest.take() || appLock.lockIfIdle() {
                appLock.lock()
                console.note("Vault locked (idle or suspended): unlock to run “\(line)”.")
                guard await ensureUnlocked() else { return 77 }
            }
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let command = words.first else { continue }
            let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
            switch command {
            case "list", "ls": _ = list()
            case "show", "cat": _ = argument.isEmpty ? usage("show TITLE") : show(argument)
            case "add", "new":
                guard !argument.isEmpty else { _ = usage("add TITLE"); break }
                console.note("Type the note; end with a line containing a single “.”")
                _ = add(title: argument, body: console.readBody())
            case "edit":
                guard !argument.isEmpty else { _ = usage("edit TITLE"); break }
                console.note("Type the new text; end with a line containing a single “.”")
                _ = edit(title: argument, body: console.readBody())
            case "delete", "rm": _ = argument.isEmpty ? usage("delete TITLE") : delete(argument)
            case "lock":
                appLock.lock()
                launchedBefore = true
            case "status": _ = status()
            case "biometrics": _ = await biometrics([argument])
            case "passwd": _ = changePassword()
            case "help", "?":
                console.say("commands: list, show TITLE, add TITLE, edit TITLE, delete TITLE, lock, status, "
                            + "biometrics on|off, passwd, quit")
            case "quit", "exit", "q":
                return 0
            default:
                console.note("unknown command “\(command)” (type `help`)")
            }
            appLock.recordActivity()
        }
    }

    private func usage(_ text: String) -> Int32 {
        console.note("usage: \(text)")
        return 64
    }

    /// SIGTSTP (Ctrl-Z) locks and then suspends; SIGHUP locks and quits; a timer locks after the idle timeout.
    /// The signals are delivered by Dispatch signal sources (the default actions are ignored), so no code runs in
    /// a signal handler. Nonisolated: the handlers run on a private queue, not on the main actor.
    private nonisolated static func installLockWatchers(_ lockRequest: VaultFlag, sessions: KeychainAppSessionStore,
                                                        timeout: TimeInterval) -> [any DispatchSourceProtocol] {
        let queue = DispatchQueue(label: "org.latchkey.vault.watchers")
        signal(SIGTSTP, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangUp.setEventHandler {
            sessions.setLastActive(nil)
            exit(129)
        }
        let suspend = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
        suspend.setEventHandler {
            sessions.setLastActive(nil)
            lockRequest.raise()
            FileHandle.standardError.write(Data("\n[vault locked]\n".utf8))
            kill(getpid(), SIGSTOP)  // SIGSTOP: also stops an orphaned process group (tmux, setsid)
        }
        let watcher = DispatchSource.makeTimerSource(queue: queue)
        watcher.schedule(deadline: .now() + 0.2, repeating: 0.2)
        watcher.setEventHandler {
            guard let last = sessions.lastActive(), Date().timeIntervalSince(last) >= timeout else { return }
            sessions.setLastActive(nil)
            lockRequest.raise()
            FileHandle.standardError.write(Data("\n[vault locked after \(Int(timeout)) s idle]\n".utf8))
        }
        for source in [hangUp, suspend, watcher] as [any DispatchSourceProtocol] { source.resume() }
        return [hangUp, suspend, watcher]
    }
}
