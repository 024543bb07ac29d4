import Foundation

/// One entry of the BLOB's `entries` (MDS3 §3.1.1 `MetadataBLOBPayloadEntry`). Entries are matched to
/// registrations by AAGUID (FIDO2); UAF `aaid` and U2F `attestationCertificateKeyIdentifiers` entries are
/// parsed but not looked up.
public struct MetadataBLOBEntry: Sendable, Decodable {
    /// The AAGUID as published ("cb69481e-8ff7-4039-93ec-0a2729a154a8"), parsed.
    public var aaguid: UUID?
    public var aaid: String?
    public var attestationCertificateKeyIdentifiers: [String]
    public var metadataStatement: MetadataStatement?
    public var statusReports: [MetadataStatusReport]
    public var timeOfLastStatusChange: Date?

    public init(aaguid: UUID?, metadataStatement: MetadataStatement?, statusReports: [MetadataStatusReport],
                timeOfLastStatusChange: Date? = nil) {
        self.aaguid = aaguid
        self.aaid = nil
        self.attestationCertificateKeyIdentifiers = []
        self.metadataStatement = metadataStatement
        self.statusReports = statusReports
        self.timeOfLastStatusChange = timeOfLastStatusChange
    }

    enum CodingKeys: String, CodingKey {
        case aaguid, aaid, attestationCertificateKeyIdentifiers, metadataStatement, statusReports, timeOfLastStatusChange
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        aaguid = try c.decodeIfPresent(String.self, forKey: .aaguid).flatMap(UUID.init(uuidString:))
        aaid = try? c.decodeIfPresent(String.self, forKey: .aaid)
        attestationCertificateKeyIdentifiers =
            (try? c.decodeIfPresent([String].self, forKey: .attestationCertificateKeyIdentifiers)) ?? []
        metadataStatement = try c.decodeIfPresent(MetadataStatement.self, forKey: .metadataStatement)
        statusReports = try c.decodeIfPresent([MetadataStatusReport].self, forKey: .statusReports) ?? []
        timeOfLastStatusChange = try c.decodeIfPresent(String.self, forKey: .timeOfLastStatusChange)
            .flatMap(MetadataDate.parse)
    }

    /// The status in force: the report with the latest `effectiveDate` (a report without a date counts as
    /// older than any dated one; of equal dates the later in the list wins). Nil when there is no report.
    public var latestStatus: AuthenticatorStatus? {
        statusReports.enumerated().max { a, b in
            let da = a.element.effectiveDate ?? .distantPast, db = b.element.effectiveDate ?? .distantPast
            return da == db ? a.offset < b.offset : da < db
        }?.element.status
    }

    /// The authenticator's name for people: the statement's `description`.
    public var name: String? { metadataStatement?.description.flatMap { $0.isEmpty ? nil : $0 } }
}
