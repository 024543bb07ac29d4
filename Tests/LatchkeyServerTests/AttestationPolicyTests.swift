import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// What the relying party does with a statement depending on the conveyance it asked for and on
/// `requireTrustedAttestation` (AttestationVerifier's policy).
@Suite(.offCooperativePool) struct AttestationPolicyTests {
    static func junk(_ f: PasskeyFixture, format: String) async throws -> RegistrationResponse {
        try await attestedRegistration(f, key: nil) { _, _ in (format, .map(["sig": .byteString(Data([1, 2, 3]))])) }
    }

    @Test func conveyanceNoneIgnoresEveryStatement() async throws {
        let f = try PasskeyFixture { $0.attestation = .none }
        for format in ["tpm-ish", "tpm", "android-key", "android-safetynet", "packed", "fido-u2f", "apple"] {
            let stored = try await f.rp.verifyRegistration(try await Self.junk(f, format: format))
            #expect(stored.attestationFormat == format && stored.attestationTrust == .none)
        }
        // The `none` format itself keeps its one rule.
        let noneWithStatement = try await attestedRegistration(f, key: nil) { _, _ in ("none", .map(["x": 1])) }
        await #expect(throws: WebAuthnError.attestationInvalid("none: attStmt must be empty")) {
            try await f.rp.verifyRegistration(noneWithStatement)
        }
    }

    @Test func requestedAttestationChecksKnownFormatsAndAcceptsUnknownOnes() async throws {
        let f = try PasskeyFixture { $0.attestation = .direct }
        #expect(try await f.rp.verifyRegistration(try await Self.junk(f, format: "tpm-ish")).attestationTrust == .none)
        await #expect(throws: WebAuthnError.attestationCheckFailed(.statementFieldMissing(format: "tpm", field: "ver"))) {
            try await f.rp.verifyRegistration(try await Self.junk(f, format: "tpm"))
        }
        await #expect(throws: WebAuthnError.attestationCheckFailed(.statementFieldMissing(format: "android-key", field: "alg"))) {
            try await f.rp.verifyRegistration(try await Self.junk(f, format: "android-key"))
        }
        await #expect(throws: WebAuthnError.attestationCheckFailed(.statementFieldMissing(format: "android-safetynet", field: "ver"))) {
            try await f.rp.verifyRegistration(try await Self.junk(f, format: "android-safetynet"))
        }
        // A valid statement without a configured root is "uncertain".
        let s = try TPMAttestationTests.Scenario()
        #expect(try await s.f.rp.verifyRegistration(try await s.response()).attestationTrust == .uncertain)
    }

    @Test func trustedAttestationRequiredAcceptsOnlyChainsToTheRoots() async throws {
        let strict: (inout WebAuthnConfiguration) -> Void = { $0.requireTrustedAttestation = true }
        let s = try TPMAttestationTests.Scenario(anchored: true, configure: strict)
        #expect(try await s.f.rp.verifyRegistration(try await s.response()).attestationTrust == .trusted)
        await #expect(throws: WebAuthnError.unsupportedAttestationFormat("tpm-ish")) {
            try await s.f.rp.verifyRegistration(try await Self.junk(s.f, format: "tpm-ish"))
        }
        // An AIK of another PKI is refused as untrusted.
        let other = try TPMAttestationTests.Scenario()
        let foreign = try await s.response(TPMAttestationTests.Knobs(aik: other.aik))
        await #expect(throws: WebAuthnError.self) { try await s.f.rp.verifyRegistration(foreign) }
        // Without roots for the format nothing is trusted.
        let rootless = try TPMAttestationTests.Scenario(configure: strict)
        await #expect(throws: WebAuthnError.attestationNotTrusted("tpm")) {
            try await rootless.f.rp.verifyRegistration(try await rootless.response())
        }
        // Requiring trust overrides conveyance `none`: the statement is still verified.
        let noneButStrict = try TPMAttestationTests.Scenario(anchored: true) { $0.requireTrustedAttestation = true; $0.attestation = .none }
        #expect(try await noneButStrict.f.rp.verifyRegistration(try await noneButStrict.response()).attestationTrust == .trusted)
    }

    @Test func checkFailuresHaveEnglishAndKoreanText() {
        let samples: [AttestationError] = [
            .statementFieldMissing(format: "tpm", field: "ver"), .tpmMagicInvalid, .tpmSubjectAlternativeNameInvalid("missing"),
            .androidKeyOriginInvalid, .androidKeyDescriptionMalformed("KeyDescription"), .safetyNetNonceMismatch,
            .safetyNetTimestampOutOfRange, .credentialKeyMismatch(format: "android-key"),
        ]
        for error in samples {
            let english = error.message(in: .english), korean = error.message(in: .korean)
            #expect(!english.isEmpty && !korean.isEmpty && english != korean)
        }
        let wrapped = WebAuthnError.attestationCheckFailed(.tpmMagicInvalid)
        #expect(wrapped.checkName == "attestationCheckFailed")
        #expect(wrapped.localizedDescription.contains("TPM_GENERATED_VALUE"))
    }
}
