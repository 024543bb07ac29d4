#if os(Linux)
import Foundation

/// A representation of a device that provides a unique, authenticated token (DeviceCheck's two bits per device). Linux
/// has no such Apple service: `isSupported` is false and token generation fails with `featureUnsupported`.
@available(iOS 11.0, macOS 10.15, tvOS 11.0, watchOS 9.0, *)
open class DCDevice: NSObject {
    // No state.
    nonisolated(unsafe) private static let currentDevice = DCDevice()

    /// The current device.
    open class var current: DCDevice { currentDevice }

    public override init() { super.init() }

    /// False: there is no DeviceCheck service for Linux devices.
    open var isSupported: Bool { false }

    /// Fails with `DCError.featureUnsupported`, on another thread.
    open func generateToken(completionHandler completion: @escaping (Data?, (any Error)?) -> Void) {
        let handler = CompletionHandler(completion)
        DispatchQueue.global().async { handler.call(nil, DCError(.featureUnsupported)) }
    }

    /// Fails with `DCError.featureUnsupported`.
    open func generateToken() async throws -> Data { throw DCError(.featureUnsupported) }
}
#endif
