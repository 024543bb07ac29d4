#if os(Linux)
import Foundation

/// `ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor`: a security-key credential and how to reach it.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor: NSObject, ASAuthorizationPublicKeyCredentialDescriptor {
    /// `ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport`: USB, NFC or Bluetooth.
    public struct Transport: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let usb = Transport(rawValue: "usb")
        public static let nfc = Transport(rawValue: "nfc")
        public static let bluetooth = Transport(rawValue: "ble")
        /// Every transport the platform supports.
        public static var allSupported: [Transport] { [.usb, .nfc, .bluetooth] }
    }

    open var credentialID: Data
    open var transports: [Transport]

    public init(credentialID: Data, transports allowedTransports: [Transport]) {
        self.credentialID = credentialID
        self.transports = allowedTransports
        super.init()
    }
}
#endif
