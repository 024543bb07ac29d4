#if os(Linux)
import Foundation

/// `ASAuthorizationPublicKeyCredentialUserVerificationPreference`: whether the authenticator should verify the user
/// (WebAuthn's `UserVerificationRequirement`).
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Verify the user when possible; go on without when not.
    public static let preferred = Self(rawValue: "preferred")
    /// Verify the user or fail.
    public static let required = Self(rawValue: "required")
    /// Do not verify the user when it can be avoided.
    public static let discouraged = Self(rawValue: "discouraged")
}

/// `ASAuthorizationPublicKeyCredentialAttestationKind`: the attestation a registration asks for (WebAuthn's
/// `AttestationConveyancePreference`).
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct ASAuthorizationPublicKeyCredentialAttestationKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let none = Self(rawValue: "none")
    public static let direct = Self(rawValue: "direct")
    public static let indirect = Self(rawValue: "indirect")
    public static let enterprise = Self(rawValue: "enterprise")
}

/// `ASAuthorizationPublicKeyCredentialResidentKeyPreference`: whether a security key should store the credential
/// (WebAuthn's `ResidentKeyRequirement`).
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct ASAuthorizationPublicKeyCredentialResidentKeyPreference: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let discouraged = Self(rawValue: "discouraged")
    public static let preferred = Self(rawValue: "preferred")
    public static let required = Self(rawValue: "required")
}

/// `ASAuthorizationPublicKeyCredentialAttachment`: which kind of authenticator made a credential.
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, Sendable, Hashable {
    /// Built into the device (a platform passkey).
    case platform = 0
    /// Removable or on another device (a security key).
    case crossPlatform = 1
}
#endif
