/// How serious an integrity finding is. Ordered: `info` < `warning` < `critical`.
public enum IntegritySeverity: Int, Sendable, Hashable, Comparable, Codable, CaseIterable {
    /// Worth knowing (a process that can be dumped by its own user), not a sign of tampering.
    case info = 0
    /// An environment that weakens protection (root, core dumps, a preload variable).
    case warning = 1
    /// A strong sign of tampering or inspection (a debugger attached, an instrumentation library mapped).
    case critical = 2

    public static func < (lhs: IntegritySeverity, rhs: IntegritySeverity) -> Bool { lhs.rawValue < rhs.rawValue }
}
