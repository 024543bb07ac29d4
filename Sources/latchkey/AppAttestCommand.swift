import Foundation
#if os(Linux)
import CryptoKit
import DeviceCheck
#endif

/// `latchkey app-attest`: the development App Attest authority that Linux `DCAppAttestService` attestations come from.
enum AppAttestCommand {
    static let usage = """
    usage: latchkey app-attest <subcommand> [--authority DIR]
      root      print the development authority's root certificate (PEM), making the authority in the TPM first
                when there is none: give it to a server as its App Attest root for the development environment
      status    the App ID, the key directory, the authority and the TPM in force (makes nothing)

      The authority lives in --authority DIR, else $LATCHKEY_APP_ATTEST_AUTHORITY, else
      $XDG_DATA_HOME/latchkey/app-attest-authority; its keys are SecureEnclave keys of the TPM that
      LATCHKEY_TPM_TCTI names (else /dev/tpmrm0). The App ID is LATCHKEY_APPLICATION_IDENTIFIER when it is
      TEAMID.bundle.id, else LATCHKEY_TEAM_ID + "." + the application identifier.
    """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first, command != "--help", command != "-h" else {
            print(usage)
            return arguments.isEmpty ? 64 : 0
        }
        #if os(Linux)
        var configuration = LatchkeyDeviceCheckConfiguration.process
        var rest = Array(arguments.dropFirst())
        while let option = rest.first {
            guard option == "--authority", rest.count >= 2 else { return usageError("unexpected argument '\(option)'") }
            configuration.authorityDirectory = URL(fileURLWithPath: rest[1], isDirectory: true)
            rest.removeFirst(2)
        }
        return LatchkeyDeviceCheckConfiguration.$task.withValue(configuration) {
            switch command {
            case "root": return root()
            case "status": return status(configuration)
            default: return usageError("unknown subcommand '\(command)'")
            }
        }
        #else
        return usageError("the development App Attest authority runs on Linux only")
        #endif
    }

    #if os(Linux)
    private static func root() -> Int32 {
        do {
            print(try LatchkeyAppAttestAuthority.current.rootCertificatePEM(), terminator: "")
            return 0
        } catch {
            FileHandle.standardError.write(Data("latchkey app-attest: \(error.localizedDescription)\n".utf8))
            return SecureEnclave.isAvailable ? 1 : 69
        }
    }

    private static func status(_ configuration: LatchkeyDeviceCheckConfiguration) -> Int32 {
        let authority = LatchkeyAppAttestAuthority.current
        let tpm = LatchkeySecureEnclaveConfiguration.latchkeyTPMStatus()
        let appID: String
        switch configuration.resolvedAppID() {
        case let .success(id): appID = id
        case let .failure(error): appID = "none — \(error.localizedDescription)"
        }
        print("""
        App ID: \(appID)
        keys: \(configuration.resolvedKeyDirectory().path)
        authority: \(authority.directory.path)\(authority.exists ? "" : " (made on first use)")
        TPM (SecureEnclave keys): \(tpm.inUse ? "in use — " : "")\(tpm.description)
        supported: \(DCAppAttestService.shared.isSupported ? "yes" : "no")
        """)
        return 0
    }
    #endif

    private static func usageError(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("latchkey app-attest: \(message)\n\n\(usage)\n".utf8))
        return 64
    }
}
