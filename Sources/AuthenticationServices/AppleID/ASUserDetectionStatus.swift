#if os(Linux)
import Foundation

/// `ASUserDetectionStatus`: Apple's hint about whether an Apple ID belongs to a real person.
public enum ASUserDetectionStatus: Int, Sendable, Hashable {
    /// Not determined on this platform: ignore.
    case unsupported = 0
    /// Not known (also every new Apple ID): treat as any new user.
    case unknown = 1
    /// Very likely a real person.
    case likelyReal = 2
}
#endif
