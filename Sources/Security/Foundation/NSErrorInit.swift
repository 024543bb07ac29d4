#if os(Linux)
import Foundation

/// `NSError()`, Apple's zero-argument form: on Apple platforms NSError inherits NSObject's `init()` and code
/// (tests especially) writes `NSError()` for "an error that is not ours". swift-corelibs-foundation has no
/// such initializer and an extension cannot add one (NSObject's `init()` cannot be overridden there), so the
/// `Security` module declares a function of that spelling. Every other `NSError(...)` call is Foundation's.
/// Returns an error with an empty domain, code 0 and no user info.
public func NSError() -> Foundation.NSError {
    Foundation.NSError(domain: "", code: 0, userInfo: nil)
}
#endif
