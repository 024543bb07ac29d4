#if os(Linux)
import Foundation

/// `LACredentialType`: the kind of credential an app hands to a context with `setCredential(_:type:)`.
public enum LACredentialType: Int, Sendable {
    /// An application-provided password (`kLACredentialTypeApplicationPassword`, 0).
    case applicationPassword = 0
    /// A smart-card PIN (`kLACredentialSmartCardPIN`, -3).
    case smartCardPIN = -3
}

/// `kLACredentialTypeApplicationPassword` (0).
public let kLACredentialTypeApplicationPassword: Int32 = 0
/// `kLACredentialSmartCardPIN` (-3).
public let kLACredentialSmartCardPIN: Int32 = -3

/// `kLAErrorDomain`, the C spelling of `LAErrorDomain`.
public let kLAErrorDomain = "com.apple.LocalAuthentication"

/// Credentials set on one `LAContext` (held in memory only, never logged).
final class LACredentialStore: @unchecked Sendable { // every access goes through `lock`
    private let lock = NSLock()
    private var values: [LACredentialType: Data] = [:]

    func set(_ value: Data?, for type: LACredentialType) {
        lock.lock()
        defer { lock.unlock() }
        values[type] = value
    }

    func contains(_ type: LACredentialType) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return values[type] != nil
    }

    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        values.removeAll()
    }
}
#endif
