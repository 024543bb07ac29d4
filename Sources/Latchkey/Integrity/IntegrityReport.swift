/// The result of an integrity check: every finding, and helpers an app's policy can use.
public struct IntegrityReport: Sendable, Hashable, Codable {
    /// The findings, in the order the checks ran.
    public let findings: [IntegrityFinding]

    /// Creates a report.
    public init(findings: [IntegrityFinding]) {
        self.findings = findings
    }

    /// True when nothing was found.
    public var isClean: Bool { findings.isEmpty }

    /// The most serious severity among the findings, or `nil` for a clean report.
    public var highestSeverity: IntegritySeverity? { findings.map(\.severity).max() }

    /// True when at least one finding has this signal.
    public func contains(_ signal: IntegrityFinding.Signal) -> Bool {
        findings.contains { $0.signal == signal }
    }

    /// The findings with this signal.
    public func findings(for signal: IntegrityFinding.Signal) -> [IntegrityFinding] {
        findings.filter { $0.signal == signal }
    }

    /// What the app should do under `policy`: the strongest response any finding asks for.
    public func response(under policy: IntegrityPolicy) -> IntegrityResponse {
        findings.map { policy.response(for: $0) }.max() ?? .proceed
    }
}
