/// What an app does about integrity findings. Ordered from the mildest to the strongest.
public enum IntegrityResponse: Int, Sendable, Hashable, Comparable, Codable, CaseIterable {
    /// Carry on.
    case proceed = 0
    /// Carry on, but tell the user.
    case warn = 1
    /// Carry on with reduced features (no biometric shortcut, no secrets shown...).
    case restrict = 2
    /// Do not handle secrets in this process at all.
    case refuse = 3

    public static func < (lhs: IntegrityResponse, rhs: IntegrityResponse) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Maps findings to responses. The policy is the app's choice; Latchkey only reports.
public struct IntegrityPolicy: Sendable, Hashable {
    /// The response for each severity.
    public var bySeverity: [IntegritySeverity: IntegrityResponse]
    /// Per-signal responses that win over `bySeverity` (e.g. proceed on `.runningAsRoot` in a container).
    public var overrides: [IntegrityFinding.Signal: IntegrityResponse]

    /// Creates a policy.
    public init(bySeverity: [IntegritySeverity: IntegrityResponse],
                overrides: [IntegrityFinding.Signal: IntegrityResponse] = [:]) {
        self.bySeverity = bySeverity
        self.overrides = overrides
    }

    /// Warn about warnings and critical findings; never restrict.
    public static let warnOnly = IntegrityPolicy(bySeverity: [.info: .proceed, .warning: .warn, .critical: .warn])
    /// Warn about warnings, restrict on critical findings.
    public static let standard = IntegrityPolicy(bySeverity: [.info: .proceed, .warning: .warn, .critical: .restrict])
    /// Restrict on warnings, refuse on critical findings (a banking app).
    public static let strict = IntegrityPolicy(bySeverity: [.info: .warn, .warning: .restrict, .critical: .refuse])

    /// The response this policy gives to one finding.
    public func response(for finding: IntegrityFinding) -> IntegrityResponse {
        overrides[finding.signal] ?? bySeverity[finding.severity] ?? .proceed
    }
}
