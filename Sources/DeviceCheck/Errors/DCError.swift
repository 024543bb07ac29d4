#if os(Linux)
import Foundation
import LatchkeySupport

/// `DCErrorDomain`: "com.apple.devicecheck.error".
@available(iOS 11.0, macOS 10.15, tvOS 11.0, watchOS 9.0, *)
public let DCErrorDomain = "com.apple.devicecheck.error"

/// `DCError`, used as Apple's is: `catch let error as DCError`, `error.code == .invalidKey`, `case DCError.invalidKey:`
/// in a `switch` over any `Error`, and as an `NSError` in `DCErrorDomain` with Apple's codes.
@available(iOS 11.0, macOS 10.15, tvOS 11.0, watchOS 9.0, *)
public struct DCError: Error, Hashable, Sendable, CustomNSError, LocalizedError {
    /// `DCError.Code`, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        /// A failure has occurred, such as the failure to generate a token.
        case unknownSystemFailure = 0
        /// DeviceCheck is unavailable on this device (on Linux: no TPM, or no App ID).
        case featureUnsupported = 1
        /// The app provided data that isn't formatted correctly.
        case invalidInput = 2
        /// A failed attempt to use the App Attest key (unknown, already attested, not attested, or refused).
        case invalidKey = 3
        /// A failed attempt to contact the App Attest service (on Linux: the development authority).
        case serverUnavailable = 4
    }

    /// The error code.
    public let code: Code
    private let message: String?

    /// An error with this code.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        message = userInfo[NSLocalizedDescriptionKey] as? String
    }

    /// The `DCError` an NSError in `DCErrorDomain` stands for (nil for other domains or unknown codes).
    public init?(_nsError error: NSError) {
        guard error.domain == DCErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.init(code, userInfo: error.userInfo)
    }

    /// An error with this code and a message of the package's (English or Korean).
    package init(_ code: Code, reason: String) {
        self.code = code
        message = reason
    }

    public static func == (a: DCError, b: DCError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var errorDomain: String { DCErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: localizedText] }
    public var errorDescription: String? { localizedText }
    /// Same as `userInfo` on Apple's bridged errors.
    public var userInfo: [String: Any] { errorUserInfo }

    private var localizedText: String {
        if let message { return message }
        let language = MessageLanguage.current
        switch code {
        case .unknownSystemFailure:
            return language.pick(english: "A DeviceCheck system failure occurred.", korean: "DeviceCheck 시스템 오류가 발생했습니다.")
        case .featureUnsupported:
            return language.pick(english: "DeviceCheck is unavailable on this device.",
                                 korean: "이 기기에서는 DeviceCheck를 사용할 수 없습니다.")
        case .invalidInput:
            return language.pick(english: "The input to DeviceCheck is not formatted correctly.",
                                 korean: "DeviceCheck에 전달한 입력 형식이 잘못되었습니다.")
        case .invalidKey:
            return language.pick(english: "The App Attest key cannot be used.", korean: "App Attest 키를 사용할 수 없습니다.")
        case .serverUnavailable:
            return language.pick(english: "The App Attest service could not be reached.",
                                 korean: "App Attest 서비스에 연결할 수 없습니다.")
        }
    }

    public static let unknownSystemFailure = Code.unknownSystemFailure
    public static let featureUnsupported = Code.featureUnsupported
    public static let invalidInput = Code.invalidInput
    public static let invalidKey = Code.invalidKey
    public static let serverUnavailable = Code.serverUnavailable
}

/// `case DCError.invalidKey:` in a `switch`/`catch` over any error (a `DCError` or an NSError in its domain).
@available(iOS 11.0, macOS 10.15, tvOS 11.0, watchOS 9.0, *)
public func ~= (match: DCError.Code, error: any Error) -> Bool {
    if let e = error as? DCError { return e.code == match }
    let ns = error as NSError
    return ns.domain == DCErrorDomain && ns.code == match.rawValue
}

/// Bridging between `DCError` and `NSError`, as Apple's bridged error types have.
@available(iOS 11.0, macOS 10.15, tvOS 11.0, watchOS 9.0, *)
extension DCError: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError {
        NSError(domain: DCErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout DCError?) {
        result = DCError(_nsError: source) ?? DCError(.unknownSystemFailure)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout DCError?) -> Bool {
        result = DCError(_nsError: source)
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> DCError {
        source.flatMap { DCError(_nsError: $0) } ?? DCError(.unknownSystemFailure)
    }
}
#endif
