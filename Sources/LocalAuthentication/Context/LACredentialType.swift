#if os(Linux)
import Foundation
import LatchkeyAuthCore

/// `LACredentialType`: the kind of credential an app hands to a context with `setCredential(_:type:)`.
@available(macOS 10.11, iOS 9.0, watchOS 3.0, *)
@available(tvOS, unavailable)
public enum LACredentialType: Int, Sendable {
    /// An application-provided password (`kLACredentialTypeApplicationPassword`, 0).
    case applicationPassword = 0
    /// A smart-card PIN (`kLACredentialSmartCardPIN`, -3).
    @available(macOS 10.15.4, iOS 13.4, watchOS 6.2, *)
    case smartCardPIN = -3

    /// The Latchkey credential type (same raw values).
    var latchkeyType: CredentialType {
        switch self {
        case .applicationPassword: .applicationPassword
        case .smartCardPIN: .smartCardPIN
        }
    }
}

/// `kLACredentialTypeApplicationPassword` (0).
public let kLACredentialTypeApplicationPassword: Int32 = 0
/// `kLACredentialSmartCardPIN` (-3).
public let kLACredentialSmartCardPIN: Int32 = -3

/// `kLAErrorDomain`, the C spelling of `LAErrorDomain`.
public let kLAErrorDomain = "com.apple.LocalAuthentication"

#endif
