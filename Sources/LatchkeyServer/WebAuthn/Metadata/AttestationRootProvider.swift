import Foundation
import LatchkeyCrypto

/// Where the relying party's registration check gets per-authenticator knowledge: the attestation roots
/// an AAGUID's attestation must chain to (added to `WebAuthnConfiguration.attestationTrustAnchors` for the
/// attestation's format), and whether the authenticator may register at all. `MetadataService` is the
/// FIDO MDS3 implementation; integrators may supply their own.
public protocol AttestationRootProvider: Sendable {
    /// The root certificates for attestations from the authenticator model `aaguid` (16 bytes); empty when unknown.
    func attestationRoots(aaguid: Data) -> [Certificate]
    /// Throws when registrations from `aaguid` must be refused (revoked or compromised models).
    func checkAuthenticatorStatus(aaguid: Data) throws
}

extension AttestationRootProvider {
    public func checkAuthenticatorStatus(aaguid: Data) throws {}
}
