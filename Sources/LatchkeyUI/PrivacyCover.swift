#if canImport(SwiftUI)
import Latchkey
import SwiftUI

/// Hides the view behind a plain cover while `LockScreenModel.isPrivacyCoverShown`, and reports every scene-phase
/// change to the model (leaving the foreground covers the app and starts the lock's background timer; coming back
/// re-checks the lock).
public struct PrivacyCover: ViewModifier {
    @Environment(\.scenePhase) private var scenePhase
    private let model: LockScreenModel

    /// A cover driven by `model`.
    public init(model: LockScreenModel) {
        self.model = model
    }

    public func body(content: Content) -> some View {
        content
            .overlay {
                if model.isPrivacyCoverShown {
                    ZStack {
                        Rectangle().fill(.background)
                        Image(systemName: "lock.fill")
                            .font(.system(size: 48))
                            .foregroundStyle(.secondary)
                    }
                    .ignoresSafeArea()
                }
            }
            .onChange(of: scenePhase, initial: true) { _, phase in
                model.scenePhaseChanged(to: AppPhase(phase))
            }
    }
}

extension View {
    /// Covers the view while the app is not active and reports the scene phase to `model` (`PrivacyCover`).
    public func privacyCover(_ model: LockScreenModel) -> some View {
        modifier(PrivacyCover(model: model))
    }
}

extension AppPhase {
    /// SwiftUI's scene phase as the models' `AppPhase`.
    public init(_ phase: ScenePhase) {
        switch phase {
        case .active: self = .active
        case .inactive: self = .inactive
        case .background: self = .background
        @unknown default: self = .inactive
        }
    }
}
#endif
