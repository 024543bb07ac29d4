import Foundation
import LatchkeyCrypto
#if os(Linux)
import LatchkeyTPM
#endif

/// A `SecureEnclave` signature made in a TPM (swtpm, started here) beside a software ES256 signature, both over a
/// SHA-256 digest: what keeping a key in hardware costs. Reported with no target (an emulated TPM's speed says little
/// of a real one's); skipped without swtpm.
enum SecureEnclaveBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "secure enclave sign (tpm on swtpm)", baselineName: "software es256 sign", unit: .timePerOperation,
                  target: nil, setUp: tpmSign),
    ]

    static func tpmSign() throws -> Benchmark.Pair {
        #if os(Linux)
        guard let tpm = try SoftwareTPM.start() else { throw BenchError.skipped("swtpm is not installed (Debian swtpm)") }
        let key = try LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(tpm.tcti) {
            try SecureEnclave.P256.Signing.PrivateKey()
        }
        let software = P256.Signing.PrivateKey()
        let digest = SHA256.hash(data: Data("a request to sign".utf8))
        guard key.publicKey.isValidSignature(try key.signature(for: digest), for: digest) else {
            throw BenchError.setUp("the TPM's signature did not verify")
        }
        return Benchmark.Pair(baseline: { _ = try software.signature(for: digest) },
                              subject: { _ = try key.signature(for: digest) },
                              tearDown: { tpm.stop() })
        #else
        throw BenchError.skipped("TPM access is Linux-only")
        #endif
    }
}
