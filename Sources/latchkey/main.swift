import Foundation

// latchkey — keychain commands, device authentication, the verifying server and the vault sample app.
// Each command group lives in its own file (<Group>Command.swift) and returns the process exit code.

// tpm2-tss writes its own warnings to stderr (a refused key, an absent TPM); the CLI reports errors itself, so they are
// off unless TSS2_LOG says otherwise. Set before any other thread exists.
setenv("TSS2_LOG", "all+NONE", 0)

let arguments = Array(CommandLine.arguments.dropFirst())
let group = arguments.first ?? "help"
let rest = Array(arguments.dropFirst())

let code: Int32
switch group {
case "keychain": code = KeychainCommand.run(rest)
case "auth": code = AuthCommand.run(rest)
case "serve": code = ServeCommand.run(rest)
case "apple-stand-in": code = AppleStandInCommand.run(rest)
case "vault": code = VaultCommand.run(rest)
case "passkey": code = PasskeyCommand.run(rest)
case "self-check": code = SelfCheckCommand.run(rest)
case "app-attest": code = AppAttestCommand.run(rest)
case "help", "--help", "-h":
    print(CLIUsage.text)
    code = 0
default:
    FileHandle.standardError.write(Data("latchkey: unknown command '\(group)'\n\n\(CLIUsage.text)\n".utf8))
    code = 64
}
exit(code)
