import Foundation

/// One entry of `statusReports` (MDS3 §3.1.3 `StatusReport`): a status and the day it took effect.
public struct MetadataStatusReport: Sendable, Hashable, Decodable {
    public var status: AuthenticatorStatus
    /// `effectiveDate` ("YYYY-MM-DD", UTC midnight); nil when absent or not a date.
    public var effectiveDate: Date?
    public var authenticatorVersion: Int?
    public var certificateNumber: String?
    public var url: String?

    public init(status: AuthenticatorStatus, effectiveDate: Date? = nil) {
        self.status = status
        self.effectiveDate = effectiveDate
    }

    enum CodingKeys: String, CodingKey { case status, effectiveDate, authenticatorVersion, certificateNumber, url }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(AuthenticatorStatus.self, forKey: .status)
        effectiveDate = try c.decodeIfPresent(String.self, forKey: .effectiveDate).flatMap(MetadataDate.parse)
        authenticatorVersion = try? c.decodeIfPresent(Int.self, forKey: .authenticatorVersion)
        certificateNumber = try? c.decodeIfPresent(String.self, forKey: .certificateNumber)
        url = try? c.decodeIfPresent(String.self, forKey: .url)
    }
}

/// The dates of the MDS3 BLOB: ISO 8601 full-date strings ("2025-06-01"), read as UTC midnight.
enum MetadataDate {
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: date) == components else { return nil }
        return date
    }
}
