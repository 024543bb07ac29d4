import Foundation

/// Apple's LocalAuthentication / Security codes mapped to Latchkey's model. Portable on purpose, so
/// the mapping used by `AppleAuthenticationContext` is tested on every platform.
extension AuthenticationError {
    /// `LAErrorDomain`.
    public static let localAuthenticationErrorDomain = "com.apple.LocalAuthentication"

    /// Maps an `LAError.Code` raw value. Codes Latchkey does not model are folded in:
    /// companionNotAvailable -11, biometryNotPaired -12, biometryDisconnected -13 and
    /// invalidDimensions -14 → `.biometryNotAvailable`; anything unknown → `.authenticationFailed`.
    public init(localAuthenticationCode code: Int) {
        if let known = AuthenticationError(rawValue: code) {
            self = known
            return
        }
        switch code {
        case -14 ... -11: self = .biometryNotAvailable
        default: self = .authenticationFailed
        }
    }

    /// Maps an error thrown by `LAContext`: an `NSError` in `LAErrorDomain` by its code, anything else
    /// to `.authenticationFailed`.
    public init(localAuthenticationError error: any Error) {
        if let mapped = error as? AuthenticationError {
            self = mapped
            return
        }
        let nsError = error as NSError
        self = nsError.domain == Self.localAuthenticationErrorDomain
            ? AuthenticationError(localAuthenticationCode: nsError.code) : .authenticationFailed
    }

    /// Maps the `OSStatus` of a keychain read made with an authentication context:
    /// errSecUserCanceled -128 → `.userCancel`, errSecAuthFailed -25293 → `.authenticationFailed`,
    /// errSecInteractionNotAllowed -25308 → `.notInteractive`, anything else → `.systemCancel`.
    public init(keychainStatus status: Int32) {
        switch status {
        case -128: self = .userCancel
        case -25293: self = .authenticationFailed
        case -25308: self = .notInteractive
        default: self = .systemCancel
        }
    }
}

extension BiometryType {
    /// Maps `LABiometryType.rawValue` (none 0, touchID 1, faceID 2, opticID 4); unknown → `.none`.
    public init(localAuthenticationRawValue raw: Int) {
        self = BiometryType(rawValue: raw) ?? .none
    }
}
