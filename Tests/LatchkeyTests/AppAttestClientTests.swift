import Foundation
import Testing
import LatchkeyWebAuthn
@testable import Latchkey

/// The kit's App Attest client, the parts that need no device: reading DeviceCheck's errors and the server's refusals,
/// and the errors' texts. (On a device, and end to end against `latchkey serve`: SecureEnclaveTests/AppAttestServer.)
@Suite struct AppAttestClientTests {
    @Test func deviceCheckErrorsAreReadByDomainAndCode() {
        let domain = "com.apple.devicecheck.error"
        #expect(AppAttestClientError(deviceCheck: NSError(domain: domain, code: 1)) == .unsupported)
        #expect(AppAttestClientError(deviceCheck: NSError(domain: domain, code: 3)) == .invalidKey)
        #expect(AppAttestClientError(deviceCheck: NSError(domain: domain, code: 4)) == .deviceFailure(code: 4))
        #expect(AppAttestClientError(deviceCheck: NSError(domain: "other", code: 3)) == .deviceFailure(code: -1))
    }

    @Test func refusalsNameTheirStep() throws {
        let refusal = Data(#"{"error":"app_attest_failed","error_description":"…","step":"counter"}"#.utf8)
        #expect(AppAttestClient.refusedStep(refusal) == .counter)
        #expect(AppAttestClient.refusedStep(Data(#"{"error":"invalid_grant"}"#.utf8)) == nil)
        #expect(AppAttestClient.refusedStep(Data(#"{"error":"app_attest_failed","step":"new"}"#.utf8)) == nil)
        #expect(AppAttestClient.refusedStep(Data("not json".utf8)) == nil)
        #expect(throws: AppAttestClientError.invalidKey) { try AppAttestClient.keyIDBytes("short") }
        #expect(try AppAttestClient.keyIDBytes(Data(repeating: 1, count: 32).base64EncodedString()).count == 32)
    }

    @Test func errorsSpeakEnglishAndKorean() {
        let errors: [AppAttestClientError] = [.unsupported, .invalidKey, .deviceFailure(code: 0), .network("x"),
                                              .refused(.signature), .server(status: 500, code: nil), .storage("s")]
        for error in errors {
            #expect(!error.message(in: .english).isEmpty && error.message(in: .english) != error.message(in: .korean))
        }
        #expect(TokenRefreshError.appAttest(.refused(.counter)).errorDescription?.isEmpty == false)
        for step in AppAttestError.Step.allCases { #expect(!step.rawValue.isEmpty) }
    }
}
