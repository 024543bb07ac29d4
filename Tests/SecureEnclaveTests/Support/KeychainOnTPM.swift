import CryptoKit
import Foundation
import LatchkeyKeychain
import LatchkeyTPM
import LocalAuthentication
import Security

/// What a `Security` Secure Enclave test runs against, all its own: a swtpm, a keychain vault file (the `SecItem…`
/// store of the test's thread only) and a simulated phone behind `LAContext()` on that thread. Nothing process-wide is
/// touched, so these tests run beside the others.
struct KeychainOnTPM: Sendable {
    let tpm: SoftwareTPM
    let device: TestDevice
    let directory: URL
    let vault: URL

    /// Runs `body` on a thread of its own (its `SecItem…` calls block, as Apple's do) with the keychain, the phone and
    /// the TPM in force; nil when swtpm is missing and services are not required.
    static func run<T: Sendable>(_ body: @escaping @Sendable (KeychainOnTPM) throws -> T) async throws -> T? {
        guard let tpm = try SoftwareTPM.start() else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-seckey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fixture = KeychainOnTPM(tpm: tpm, device: try TestDevice(), directory: directory,
                                    vault: directory.appendingPathComponent("keychain.vault"))
        defer {
            fixture.device.remove()
            try? FileManager.default.removeItem(at: directory)
        }
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try fixture.onThisThread { try body(fixture) } })
            }.start()
        }
    }

    /// `body` with this fixture's keychain, phone and TPM.
    func onThisThread<T>(_ body: () throws -> T) throws -> T {
        let store = try FileVault(url: vault, keyProvider: InMemoryVaultKeyProvider(), kdf: .testing)
        try store.unlock()
        let simulator = device.simulator
        LatchkeySecurityConfiguration.threadStore = store
        LatchkeyLocalAuthenticationConfiguration.threadMakeContext = { simulator.makeContext(passcodeProvider: FixedPasscode()) }
        defer {
            LatchkeySecurityConfiguration.threadStore = nil
            LatchkeyLocalAuthenticationConfiguration.threadMakeContext = nil
        }
        return try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti, operation: body)
    }
}
