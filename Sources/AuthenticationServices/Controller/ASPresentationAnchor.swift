#if os(Linux)
import Foundation

/// `ASPresentationAnchor`: `UIWindow` on iOS, `NSWindow` on macOS. On Linux a stand-in with no behaviour, so code
/// that returns `view.window!` or `ASPresentationAnchor()` from `presentationAnchor(for:)` has a type to name.
@MainActor
open class ASPresentationAnchor: NSObject {
    nonisolated public override init() { super.init() }
}
#endif
