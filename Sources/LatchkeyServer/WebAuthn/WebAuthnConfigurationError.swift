import Foundation
import LatchkeyCrypto

/// A `WebAuthnConfiguration` that cannot do what it says, refused when the relying party is made
/// (`WebAuthnRelyingParty.init`) rather than discovered at the first registration — or never.
public enum WebAuthnConfigurationError: Error, Sendable, Equatable {
    /// `attestationTrustAnchors` holds roots (for these formats) while `attestation` is `none` and trusted attestation
    /// is not required: no attestation statement is verified then, so the roots would never be used and a passkey
    /// from any authenticator would register with trust `none`, a wrong root included.
    case trustAnchorsWithoutAttestation(formats: [String])
}

extension WebAuthnConfigurationError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in `language` (both name the settings by their API and `latchkey serve` names).
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .trustAnchorsWithoutAttestation(let formats):
            let list = formats.joined(separator: ", ")
            return language.pick(
                english: "attestationTrustAnchors (latchkey serve --attestation-roots) holds roots for \(list), but attestation "
                    + "(--attestation) is none: no attestation statement would be verified, so the roots would never be "
                    + "used. Ask for attestation (.direct, --attestation direct), set requireTrustedAttestation, or remove the roots.",
                korean: "attestationTrustAnchors(latchkey serve --attestation-roots)에 \(list) 루트가 있지만 attestation"
                    + "(--attestation)이 none입니다. 증명서를 검증하지 않으므로 루트가 쓰이지 않습니다. 증명을 요청하거나 "
                    + "(.direct, --attestation direct) requireTrustedAttestation을 설정하거나 루트를 빼세요.")
        }
    }
}
