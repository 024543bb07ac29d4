/// The kind of biometric sensor a context offers, as `LABiometryType`.
public enum BiometryType: Int, Sendable, Hashable, CaseIterable, Codable {
    case none = 0
    case touchID = 1
    case faceID = 2
    case opticID = 4
}
