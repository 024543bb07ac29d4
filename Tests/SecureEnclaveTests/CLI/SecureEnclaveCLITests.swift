import CryptoKit
import DeviceCheck
import Foundation
import LatchkeyTestSupport
import LatchkeyTPM
import LatchkeyCrypto
import LatchkeySupport
import Testing

/// `latchkey self-check`, `latchkey keychain status` and `latchkey app-attest` say whether a TPM is in use, and the
/// root `app-attest root` prints is the one Linux attestations chain to.
@Suite(.offCooperativePool) struct SecureEnclaveCLITests {
    /// The `latchkey` built beside this test binary (nil: the tests are skipped, or fail when services are required).
    static let binary: String? = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("latchkey")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside.path : nil
    }()

    /// Runs the CLI with `environment` added to a clean one; its exit status and output (stdout and stderr).
    func run(_ arguments: [String], _ environment: [String: String], home: URL) throws -> (Int32, String) {
        guard let binary = Self.binary else { throw SoftwareTPMError.missing }
        let output = home.appendingPathComponent("out-\(UUID().uuidString)")
        var base = ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                    "LATCHKEY_KEYCHAIN": "file", "LANG": "C"]
        base.merge(environment) { $1 }
        let status = try SpawnedCommand.run([binary] + arguments, environment: base, outputPath: output.path)
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    @Test func theCommandsSayWhetherATPMIsInUse() throws {
        guard Self.binary != nil || SoftwareTPM.required, let tpm = try SoftwareTPM.start() else { return }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-se-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }

        let (checked, selfCheck) = try run(["self-check"], ["LATCHKEY_TPM_TCTI": tpm.tcti], home: home)
        #expect(checked == 0)
        #expect(selfCheck.contains("TPM (SecureEnclave): in use — \(tpm.tcti)"))
        #expect(selfCheck.contains("ok   SecureEnclave P-256 key made in the TPM signs"))
        let (unchecked, noTPM) = try run(["self-check"], ["LATCHKEY_TPM_TCTI": "none"], home: home)
        #expect(unchecked == 0 && noTPM.contains("TPM (SecureEnclave): none (LATCHKEY_TPM_TCTI=none)"))

        let (statusCode, status) = try run(["keychain", "status"], ["LATCHKEY_TPM_TCTI": tpm.tcti], home: home)
        #expect(statusCode == 0 && status.contains("TPM (SecureEnclave keys): in use — \(tpm.tcti)"))
        let (_, statusWithout) = try run(["keychain", "status"], ["LATCHKEY_TPM_TCTI": "none"], home: home)
        #expect(statusWithout.contains("TPM (SecureEnclave keys): none"))

        // The root the CLI prints is the one this process's DCAppAttestService attestations chain to.
        let authority = home.appendingPathComponent("authority")
        let (rootCode, pem) = try run(["app-attest", "root", "--authority", authority.path], ["LATCHKEY_TPM_TCTI": tpm.tcti],
                                      home: home)
        #expect(rootCode == 0)
        let root = try Certificate(derRepresentation: PEM.decode(pem, labels: ["CERTIFICATE"]).der)
        #expect(root.subjectAttribute("CN") == ["Latchkey App Attestation Development Root CA"])
        let configuration = LatchkeyDeviceCheckConfiguration(appID: AppAttestTests.appID,
                                                              keyDirectory: home.appendingPathComponent("keys"),
                                                              authorityDirectory: authority)
        let challenge = Data("from the CLI's root".utf8)
        try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            try LatchkeyDeviceCheckConfiguration.$task.withValue(configuration) {
                let keyId = try waitForTask { try await DCAppAttestService.shared.generateKey() }
                let attestation = try waitForTask {
                    try await DCAppAttestService.shared.attestKey(keyId, clientDataHash: Data(SHA256.hash(data: challenge)))
                }
                _ = try AppAttestVerifier(appID: AppAttestTests.appID, root: root)
                    .verifyAttestation(attestation, keyID: keyId, challenge: challenge)
            }
        }
        let (_, appAttestStatus) = try run(["app-attest", "status", "--authority", authority.path],
                                           ["LATCHKEY_TPM_TCTI": tpm.tcti,
                                            "LATCHKEY_APPLICATION_IDENTIFIER": AppAttestTests.appID], home: home)
        #expect(appAttestStatus.contains("App ID: \(AppAttestTests.appID)") && appAttestStatus.contains("supported: yes"))
    }
}
