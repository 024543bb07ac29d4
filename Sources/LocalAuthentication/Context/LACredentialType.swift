#if os(Linux)
import Foundation
import LatchkeyAuthCore

/// `LACredentialType`: the kind of credential an app hands to a context with `setCredential(_:type:)`.
public enum LACredentialType: Int, Sendable {
    /// An application-provided password (`kLACredentialTypeApplicationPassword`, 0).
    case applicationPassword = 0
    /// A smart-card PIN (`kLACredentialSmartCardPIN`, -3).
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
