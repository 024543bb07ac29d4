#if canImport(LocalAuthentication) && !os(Linux) && !os(watchOS) && !os(tvOS)
import Foundation
import LocalAuthentication
import Security
import LatchkeySupport

/// `AuthenticationContext` over Apple's `LAContext`: a thin pass-through with the error mapping of
/// `AuthenticationError(localAuthenticationError:)`.
///
/// `releaseSecret(for:)` keeps one random secret per protection domain in the real keychain, guarded by
/// the matching `SecAccessControl` flag, and reads it with `kSecUseAuthenticationContext` = this
/// context — so the Secure Enclave enforces the gate. Not available on watchOS and tvOS.
public final class AppleAuthenticationContext: AuthenticationContext {
    // LAContext is documented as usable from any thread; it is never mutated outside its own API.
    nonisolated(unsafe) private let context: LAContext
    private let service: String

    /// Wraps `context`; `service` names the keychain items holding the domain secrets.
    public init(context: LAContext = LAContext(), service: String = "dev.latchkey.protection-domain") {
        self.context = context
        self.service = service
    }

    /// The wrapped context, e.g. for `kSecUseAuthenticationContext`.
    public var laContext: LAContext { context }

    /// `LAContext.biometryType` (`.none` before `canEvaluate`).
    public var biometryType: BiometryType { BiometryType(localAuthenticationRawValue: context.biometryType.rawValue) }

    /// `LAContext.evaluatedPolicyDomainState`.
    public var domainState: Data? { context.evaluatedPolicyDomainState }

    /// `LAContext.localizedFallbackTitle`.
    public var localizedFallbackTitle: String? {
        get { context.localizedFallbackTitle }
        set { context.localizedFallbackTitle = newValue }
    }

    /// `LAContext.localizedCancelTitle`.
    public var localizedCancelTitle: String? {
        get { context.localizedCancelTitle }
        set { context.localizedCancelTitle = newValue }
    }

    /// `LAContext.touchIDAuthenticationAllowableReuseDuration` (capped at 300 s).
    public var reuseDuration: Double {
        get { context.touchIDAuthenticationAllowableReuseDuration }
        set {
            context.touchIDAuthenticationAllowableReuseDuration =
                LocalAuthenticationRules.clampedReuseDuration(newValue)
        }
    }

    /// `LAContext.interactionNotAllowed`.
    public var interactionNotAllowed: Bool {
        get { context.interactionNotAllowed }
        set { context.interactionNotAllowed = newValue }
    }

    /// `LAContext.canEvaluatePolicy(_:error:)`.
    public func canEvaluate(_ policy: Policy) throws(AuthenticationError) {
        var error: NSError?
        if !context.canEvaluatePolicy(Self.laPolicy(policy), error: &error) {
            throw error.map { AuthenticationError(localAuthenticationError: $0) } ?? .authenticationFailed
        }
    }

    /// `LAContext.evaluatePolicy(_:localizedReason:)`.
    public func evaluate(_ policy: Policy, reason: String) async throws(AuthenticationError) {
        do {
            _ = try await context.evaluatePolicy(Self.laPolicy(policy), localizedReason: reason)
        } catch {
            throw AuthenticationError(localAuthenticationError: error)
        }
    }

    /// `LAContext.invalidate()`.
    public func invalidate() { context.invalidate() }

    /// Reads (creating on first use) the domain's keychain secret with this context.
    public func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: domain.rawValue,
            kSecReturnData as String: true,
            kSecUseAuthenticationContext as String: context,
        ]
        var result: AnyObject?
        var status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound {
            try createSecret(for: domain)
            status = SecItemCopyMatching(query as CFDictionary, &result)
        }
        guard status == errSecSuccess, let data = result as? Data else {
            throw AuthenticationError(keychainStatus: status)
        }
        return data
    }

    private func createSecret(for domain: ProtectionDomain) throws(AuthenticationError) {
        let flags: SecAccessControlCreateFlags = switch domain {
        case .biometryAny: .biometryAny
        case .biometryCurrentSet: .biometryCurrentSet
        case .devicePasscode: .devicePasscode
        case .userPresence: .userPresence
        }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, &error) else {
            throw .passcodeNotSet
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess else { throw .systemCancel }
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: domain.rawValue,
            kSecAttrAccessControl as String: access,
            kSecValueData as String: Data(bytes),
        ]
        for index in bytes.indices { bytes[index] = 0 }
        let status = SecItemAdd(attributes as CFDictionary, nil)
        guard status == errSecSuccess || status == errSecDuplicateItem else {
            throw AuthenticationError(keychainStatus: status)
        }
    }

    private static func laPolicy(_ policy: Policy) -> LAPolicy {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics: .deviceOwnerAuthenticationWithBiometrics
        case .deviceOwnerAuthentication: .deviceOwnerAuthentication
        }
    }
}
#endif
