import Foundation
import LatchkeyAuth
import LatchkeyCrypto
import LatchkeyKeychain

/// A secret that opens only for the device owner: a generic-password keychain item with an access
/// control (`biometryCurrentSet` by default), saved and read through `BiometricAuthenticator`.
///
/// The gate is the store's: the item key is derived from the secret the authentication context releases
/// after a successful evaluation, so the vault key alone cannot open it. After a new enrolment a
/// `.biometryCurrentSet` item is dead for good (`.invalidatedByEnrollmentChange`); `.biometryAny` survives.
///
/// ```swift
/// let token = ProtectedItem(service: "com.example.bank", account: "refresh-token",
///                           store: vault, authenticator: BiometricAuthenticator())
/// try await token.save(Data("…".utf8), reason: "Protect your sign-in")
/// let value = try await token.read(reason: "Sign in to your account")
/// ```
public struct ProtectedItem: Sendable {
    /// What must be proven to open the item.
    public enum Protection: String, Sendable, Hashable, CaseIterable {
        /// The faces / fingers enrolled now; dies when enrolment changes (`kSecAccessControlBiometryCurrentSet`).
        case biometryCurrentSet
        /// Any enrolled face / finger; survives new enrolments (`kSecAccessControlBiometryAny`).
        case biometryAny
        /// Biometry or the device passcode (`kSecAccessControlUserPresence`).
        case userPresence

        /// The keychain access-control flags.
        public var flags: AccessControlFlags {
            switch self {
            case .biometryCurrentSet: .biometryCurrentSet
            case .biometryAny: .biometryAny
            case .userPresence: .userPresence
            }
        }
    }

    /// The item's service.
    public let service: String
    /// The item's account.
    public let account: String
    /// What opens it.
    public let protection: Protection
    private let store: any ItemStore
    private let authenticator: BiometricAuthenticator

    /// A protected item in `store`, authenticated by `authenticator`.
    public init(service: String, account: String, protection: Protection = .biometryCurrentSet,
                store: any ItemStore, authenticator: BiometricAuthenticator) {
        self.service = service
        self.account = account
        self.protection = protection
        self.store = store
        self.authenticator = authenticator
    }

    /// The access control the item is saved with (this device only, only while a passcode is set).
    public var accessControl: AccessControl {
        AccessControl(accessibility: .whenPasscodeSetThisDeviceOnly, flags: protection.flags)
    }

    /// Authenticates the owner, then stores `secret` (replacing an earlier value). A failed or canceled
    /// authentication leaves the earlier value in place.
    public func save(_ secret: Data, reason: String) async throws(ProtectedItemError) {
        let context = try await authenticate(reason: reason)
        defer { context.invalidate() }
        var item = Item.genericPassword(service: service, account: account, value: secret,
                                        accessibility: accessControl.accessibility)
        item.attributes.accessControl = accessControl
        do {
            try deleteIfPresent()
            try store.add(item, authenticationContext: context)
        } catch {
            throw ProtectedItemError(keychain: error)
        }
    }

    /// Authenticates the owner and returns the secret. A missing item is reported without a prompt.
    public func read(reason: String) async throws(ProtectedItemError) -> Data {
        guard try exists() else { throw .notFound }
        let context = try await authenticate(reason: reason)
        defer { context.invalidate() }
        var query = ItemQuery.genericPassword(service: service, account: account)
        query.returnData = true
        query.authenticationContext = context
        query.authenticationUI = .fail
        do {
            guard let data = try store.copyMatching(query).first?.data else { throw ProtectedItemError.notFound }
            return data
        } catch let error as KeychainStoreError {
            // The owner was proven, yet the item does not open: its key was bound to an enrolment
            // that no longer exists.
            throw error.status == .authFailed ? .invalidatedByEnrollmentChange : ProtectedItemError(keychain: error)
        } catch let error as ProtectedItemError {
            throw error
        } catch {
            throw .keychain(.internalComponent)
        }
    }

    /// Whether the item exists (no authentication needed).
    public func exists() throws(ProtectedItemError) -> Bool {
        var query = ItemQuery.genericPassword(service: service, account: account)
        query.returnAttributes = true
        do {
            return try !store.copyMatching(query).isEmpty
        } catch {
            if error.status == .itemNotFound { return false }
            throw ProtectedItemError(keychain: error)
        }
    }

    /// Deletes the item (no authentication needed, as on Apple platforms); deleting a missing item is fine.
    public func delete() throws(ProtectedItemError) {
        do { try deleteIfPresent() } catch { throw ProtectedItemError(keychain: error) }
    }

    private func deleteIfPresent() throws(KeychainStoreError) {
        do {
            try store.delete(.genericPassword(service: service, account: account))
        } catch {
            if error.status != .itemNotFound { throw error }
        }
    }

    private func authenticate(reason: String) async throws(ProtectedItemError) -> any AuthenticationContext {
        switch await authenticator.authenticatedContext(policy: accessControl.policy, reason: reason) {
        case let .success(context): return context
        case let .failure(error): throw .authentication(error)
        }
    }
}

/// Why a protected item could not be saved or read.
public enum ProtectedItemError: Error, Sendable, Hashable {
    /// The owner was not authenticated (canceled, failed, locked out, not enrolled...).
    case authentication(AuthError)
    /// No such item.
    case notFound
    /// A `.biometryCurrentSet` item whose enrolment changed: it can never be opened again; delete it.
    case invalidatedByEnrollmentChange
    /// The keychain refused (locked vault, I/O...), with Apple's `OSStatus`.
    case keychain(KeychainStatus)

    init(keychain error: KeychainStoreError) {
        switch error.status {
        case .itemNotFound: self = .notFound
        case .userCanceled: self = .authentication(.userCancel)
        default: self = .keychain(error.status)
        }
    }
}

extension ProtectedItemError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case let .authentication(error):
            return error.message(in: lang)
        case .notFound:
            return lang.pick(english: "The protected item does not exist.", korean: "보호된 항목이 없습니다.")
        case .invalidatedByEnrollmentChange:
            return lang.pick(english: "Biometric enrolment changed, so this protected item can no longer be opened.",
                             korean: "생체 등록이 변경되어 이 보호된 항목을 더 이상 열 수 없습니다.")
        case let .keychain(status):
            return lang.pick(english: "The keychain refused the operation (\(status)).",
                             korean: "키체인이 작업을 거부했습니다 (\(status)).")
        }
    }
}
