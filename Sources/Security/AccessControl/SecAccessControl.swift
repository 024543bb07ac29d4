#if os(Linux)
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// `SecAccessControl`: an accessibility level plus the authentication an item needs, as
/// LatchkeyKeychain's `AccessControl` (which the stores enforce cryptographically).
public final class SecAccessControl: Hashable, AccessControlConvertible {
    /// The Latchkey access control this object stands for.
    public let latchkeyAccessControl: LatchkeyKeychainCore.AccessControl

    init(_ control: LatchkeyKeychainCore.AccessControl) { latchkeyAccessControl = control }

    public static func == (a: SecAccessControl, b: SecAccessControl) -> Bool {
        a.latchkeyAccessControl == b.latchkeyAccessControl
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(latchkeyAccessControl) }
}

/// `SecAccessControlCreateFlags`, with Apple's raw values.
@available(macOS 10.10, iOS 8.0, *)
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }
    /// Biometry (any enrolled) or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Any enrolled biometry; survives enrolment changes.
    @available(macOS 10.13.4, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// Deprecated name of `biometryAny`.
    @available(macOS, introduced: 10.12.1, deprecated: 10.13.4)
    @available(iOS, introduced: 9.0, deprecated: 11.3)
    @available(tvOS, deprecated: 11.3)
    @available(watchOS, deprecated: 4.3)
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// The biometry enrolled now; the item becomes unreadable when enrolment changes.
    @available(macOS 10.13.4, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// Deprecated name of `biometryCurrentSet`.
    @available(macOS, introduced: 10.12.1, deprecated: 10.13.4)
    @available(iOS, introduced: 9.0, deprecated: 11.3)
    @available(tvOS, deprecated: 11.3)
    @available(watchOS, deprecated: 4.3)
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The device passcode (on Linux: the account password through PAM, or the simulator's passcode).
    @available(macOS 10.11, iOS 9.0, *)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// A paired companion device (Linux has none: an alternative needing one never opens the item).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    public static let companion = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// Deprecated name of `companion`.
    @available(macOS, introduced: 10.15, deprecated: 15.0)
    @available(macCatalyst, deprecated: 18.0)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public static let watch = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// Any one of the constraints suffices.
    @available(macOS 10.12.1, iOS 9.0, *)
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// All of the constraints are needed.
    @available(macOS 10.12.1, iOS 9.0, *)
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// The private key of a key item may be used (signing) after authentication.
    @available(macOS 10.12.1, iOS 9.0, *)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// The item's value is also encrypted under a key derived from an application password
    /// (`LAContext.setCredential(_:type: .applicationPassword)`, or asked for by the prompt).
    @available(macOS 10.12.1, iOS 9.0, *)
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

/// `SecAccessControlCreateWithFlags`: `protection` is a `kSecAttrAccessible…` value. Invalid input (another
/// protection, or a combination Apple refuses: `.or` with `.and`, both biometry flags, `.userPresence` with anything
/// but `.applicationPassword` / `.privateKeyUsage`) returns nil and sets `error` to an `NSOSStatusErrorDomain`
/// error with errSecParam.
@available(macOS 10.10, iOS 8.0, *)
@discardableResult
public func SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFTypeRef,
                                            _ flags: SecAccessControlCreateFlags,
                                            _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? {
    let raw = (protection as? String) ?? (protection as? NSString).map { String($0) }
    guard let raw, let level = LatchkeyKeychainCore.Accessibility(rawValue: raw) else {
        error?.pointee = Unmanaged.passRetained(SecurityErrors.error(errSecParam))
        return nil
    }
    let control = LatchkeyKeychainCore.AccessControl(accessibility: level, flags: AccessControlFlags(rawValue: flags.rawValue))
    do {
        try control.validate()
    } catch let failure {
        error?.pointee = Unmanaged.passRetained(SecurityErrors.error(failure.status.rawValue))
        return nil
    }
    return SecAccessControl(control)
}

/// `NSError`s in `NSOSStatusErrorDomain`, as Security's CFError results are.
enum SecurityErrors {
    static func error(_ status: OSStatus) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status),
                userInfo: [NSLocalizedDescriptionKey: (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"])
    }
}
#endif
