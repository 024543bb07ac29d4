/// Where the app stands with the user, as SwiftUI's `ScenePhase` says (a portable copy: this module has no SwiftUI).
public enum AppPhase: Sendable, Hashable, CaseIterable {
    /// In the foreground and receiving events.
    case active
    /// Visible but not receiving events: the app switcher, Control Center, a system prompt (Face ID's included).
    case inactive
    /// Not visible.
    case background
}
