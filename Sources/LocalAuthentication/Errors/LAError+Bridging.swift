#if os(Linux)
import Foundation

/// Bridging between `LAError` and `NSError`, as Apple's bridged error types have: the `NSError?` that
/// `canEvaluatePolicy(_:error:)` fills casts back with `error as? LAError`, and so does an `Error`
/// holding such an `NSError`. Only NSErrors in `LAErrorDomain` with a known code cast.
extension LAError: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError {
        NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) {
        result = LAError(_nsError: source) ?? LAError(.authenticationFailed)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) -> Bool {
        result = LAError(_nsError: source)
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> LAError {
        source.flatMap { LAError(_nsError: $0) } ?? LAError(.authenticationFailed)
    }
}
#endif
