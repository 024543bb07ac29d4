#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux

/// `LAErrorDomain`: "com.apple.LocalAuthentication".
@available(macOS 10.11, iOS 8.3, watchOS 3.0, *)
@available(tvOS, unavailable)
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// `LAError`, used as Apple's is: `catch let error as LAError`, `error.code == .userCancel`,
/// `case LAError.biometryLockout:` in a `switch` over any `Error`, and as an `NSError` in
/// `LAErrorDomain` with Apple's codes.
@available(macOS 10.10, iOS 8.0, watchOS 3.0, *)
@available(tvOS, unavailable)
public struct LAError: Error, Hashable, Sendable, CustomNSError, LocalizedError {
    /// `LAError.Code`, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        @available(macOS 10.13, iOS 11.0, *)
        @available(watchOS, unavailable)
        case biometryNotAvailable = -6
        @available(macOS 10.13, iOS 11.0, *)
        @available(watchOS, unavailable)
        case biometryNotEnrolled = -7
        @available(macOS 10.13, iOS 11.0, *)
        @available(watchOS, unavailable)
        case biometryLockout = -8
        @available(macOS 10.11, iOS 9.0, *)
        case appCancel = -9
        @available(macOS 10.11, iOS 9.0, *)
        case invalidContext = -10
        @available(macOS 15.0, iOS 18.0, *)
        @available(watchOS, unavailable)
        @available(visionOS, unavailable)
        case companionNotAvailable = -11
        @available(macOS 11.2, *)
        @available(iOS, unavailable)
        @available(watchOS, unavailable)
        case biometryNotPaired = -12
        @available(macOS 11.2, *)
        @available(iOS, unavailable)
        @available(watchOS, unavailable)
        case biometryDisconnected = -13
        @available(macOS 12.0, *)
        @available(iOS, unavailable)
        @available(watchOS, unavailable)
        case invalidDimensions = -14
        case notInteractive = -1004

        /// Deprecated names.
        @available(macOS, introduced: 10.10, deprecated: 10.13)
        @available(iOS, introduced: 8.0, deprecated: 11.0)
        public static let touchIDNotAvailable = Code.biometryNotAvailable
        @available(macOS, introduced: 10.10, deprecated: 10.13)
        @available(iOS, introduced: 8.0, deprecated: 11.0)
        public static let touchIDNotEnrolled = Code.biometryNotEnrolled
        @available(macOS, introduced: 10.11, deprecated: 10.13)
        @available(iOS, introduced: 9.0, deprecated: 11.0)
        @available(watchOS, introduced: 3.0, deprecated: 4.0)
        public static let touchIDLockout = Code.biometryLockout
        @available(macOS, introduced: 10.15, deprecated: 15.0)
        @available(iOS, unavailable)
        @available(watchOS, unavailable)
        public static let watchNotAvailable = Code.companionNotAvailable
    }

    /// The error code.
    public let code: Code
    private let message: String?

    /// An error with this code.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = userInfo[NSLocalizedDescriptionKey] as? String
    }

    /// The `LAError` an NSError in `LAErrorDomain` stands for (nil for other domains or unknown codes).
    public init?(_nsError error: NSError) {
        guard error.domain == LAErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.init(code, userInfo: error.userInfo)
    }

    /// The `LAError` of a Latchkey authentication error (same raw values).
    package init(_ error: AuthenticationError) {
        self.code = Code(rawValue: error.rawValue) ?? .authenticationFailed
        self.message = error.errorDescription
    }

    public static func == (a: LAError, b: LAError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var errorDomain: String { LAErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: localizedText] }
    public var errorDescription: String? { localizedText }
    /// Same as `userInfo` on Apple's bridged errors.
    public var userInfo: [String: Any] { errorUserInfo }

    private var localizedText: String {
        if let message { return message }
        if let e = AuthenticationError(rawValue: code.rawValue), let text = e.errorDescription { return text }
        return "Authentication error \(code.rawValue)."
    }

    public static let authenticationFailed = Code.authenticationFailed
    public static let userCancel = Code.userCancel
    public static let userFallback = Code.userFallback
    public static let systemCancel = Code.systemCancel
    public static let passcodeNotSet = Code.passcodeNotSet
    @available(macOS 10.13, iOS 11.0, *)
    @available(watchOS, unavailable)
    public static let biometryNotAvailable = Code.biometryNotAvailable
    @available(macOS 10.13, iOS 11.0, *)
    @available(watchOS, unavailable)
    public static let biometryNotEnrolled = Code.biometryNotEnrolled
    @available(macOS 10.13, iOS 11.0, *)
    @available(watchOS, unavailable)
    public static let biometryLockout = Code.biometryLockout
    @available(macOS 10.11, iOS 9.0, *)
    public static let appCancel = Code.appCancel
    @available(macOS 10.11, iOS 9.0, *)
    public static let invalidContext = Code.invalidContext
    @available(macOS 15.0, iOS 18.0, *)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public static let companionNotAvailable = Code.companionNotAvailable
    @available(macOS 11.2, *)
    @available(iOS, unavailable)
    @available(watchOS, unavailable)
    public static let biometryNotPaired = Code.biometryNotPaired
    @available(macOS 11.2, *)
    @available(iOS, unavailable)
    @available(watchOS, unavailable)
    public static let biometryDisconnected = Code.biometryDisconnected
    @available(macOS 12.0, *)
    @available(iOS, unavailable)
    @available(watchOS, unavailable)
    public static let invalidDimensions = Code.invalidDimensions
    public static let notInteractive = Code.notInteractive
    @available(macOS, introduced: 10.10, deprecated: 10.13)
    @available(iOS, introduced: 8.0, deprecated: 11.0)
    public static let touchIDNotAvailable = Code.biometryNotAvailable
    @available(macOS, introduced: 10.10, deprecated: 10.13)
    @available(iOS, introduced: 8.0, deprecated: 11.0)
    public static let touchIDNotEnrolled = Code.biometryNotEnrolled
    @available(macOS, introduced: 10.11, deprecated: 10.13)
    @available(iOS, introduced: 9.0, deprecated: 11.0)
    @available(watchOS, introduced: 3.0, deprecated: 4.0)
    public static let touchIDLockout = Code.biometryLockout
    @available(macOS, introduced: 10.15, deprecated: 15.0)
    @available(iOS, unavailable)
    @available(watchOS, unavailable)
    public static let watchNotAvailable = Code.companionNotAvailable
}

/// `case LAError.userCancel:` in a `switch`/`catch` over any error (an `LAError` or an NSError in its domain).
public func ~= (match: LAError.Code, error: any Error) -> Bool {
    if let e = error as? LAError { return e.code == match }
    let ns = error as NSError
    return ns.domain == LAErrorDomain && ns.code == match.rawValue
}
#endif

