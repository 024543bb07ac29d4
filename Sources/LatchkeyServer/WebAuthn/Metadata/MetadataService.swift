import Foundation
import LatchkeyCrypto

/// The verified MDS3 BLOB's entries by AAGUID: the authenticator's name and icon for people, its
/// attestation roots for the attestation check, and its status for refusing revoked or compromised models.
public struct MetadataService: AttestationRootProvider {
    public let blob: MetadataBLOB
    let entries: [UUID: MetadataBLOBEntry]

    public init(blob: MetadataBLOB) {
        self.blob = blob
        var byAAGUID: [UUID: MetadataBLOBEntry] = [:]
        for entry in blob.entries { if let aaguid = entry.aaguid { byAAGUID[aaguid] = entry } }
        entries = byAAGUID
    }

    /// The entry of an AAGUID (16 bytes). The all-zero AAGUID (`none` attestation, U2F) has none.
    public func entry(aaguid: Data) -> MetadataBLOBEntry? {
        Self.uuid(aaguid).flatMap { entries[$0] }
    }

    /// The authenticator's name (`description`), when the BLOB knows it.
    public func authenticatorName(aaguid: Data) -> String? { entry(aaguid: aaguid)?.name }

    /// The authenticator's icon (a `data:` URL), when published.
    public func icon(aaguid: Data) -> String? { entry(aaguid: aaguid)?.metadataStatement?.icon }

    public func attestationRoots(aaguid: Data) -> [Certificate] {
        entry(aaguid: aaguid)?.metadataStatement?.attestationRootCertificates ?? []
    }

    /// Throws `MetadataError.authenticatorRefused` when the latest status report is one of
    /// `AuthenticatorStatus.refused`. An AAGUID the BLOB does not list passes.
    public func checkAuthenticatorStatus(aaguid: Data) throws {
        guard let entry = entry(aaguid: aaguid), let status = entry.latestStatus, status.isRefused else { return }
        throw MetadataError.authenticatorRefused(aaguid: Self.text(aaguid), status: status)
    }

    /// The AAGUID as a UUID; nil unless 16 bytes and not all zero.
    static func uuid(_ aaguid: Data) -> UUID? {
        guard aaguid.contains(where: { $0 != 0 }) else { return nil }
        return anyUUID(aaguid)
    }

    static func anyUUID(_ aaguid: Data) -> UUID? {
        guard aaguid.count == 16 else { return nil }
        let b = [UInt8](aaguid)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The AAGUID in its usual text form (lowercase, with dashes), e.g. for listings without metadata.
    public static func text(_ aaguid: Data) -> String {
        anyUUID(aaguid)?.uuidString.lowercased() ?? aaguid.map { String(format: "%02x", $0) }.joined()
    }
}
