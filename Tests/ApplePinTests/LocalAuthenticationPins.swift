#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)
import Foundation
import LocalAuthentication
import Security

// Apple's documented signatures of every LocalAuthentication symbol the package calls or the Linux
// `LocalAuthentication` module provides (developer.apple.com/documentation/localauthentication, LAContext.h,
// LAError.h, LAPublicDefines.h), pinned as in SecurityPins.swift. `LAAccessControlOperation` and
// `evaluateAccessControl` are LocalAuthentication API on Apple platforms; the Linux modules declare them in
// `Security` (they need `SecAccessControl`), so this file imports both. tvOS has no `LAContext`; watchOS lacks
// most of its biometry API: both are left out.

/// Pins of the LocalAuthentication framework; `ApplePinTests` runs the functions that only read constants.
enum LocalAuthenticationPins {
    static func context() {
        pinHashable(LAContext.self)
        let _: () -> LAContext = LAContext.init
        let _: KeyPath<LAContext, LABiometryType> = \LAContext.biometryType
        let _: ReferenceWritableKeyPath<LAContext, String> = \LAContext.localizedReason
        let _: ReferenceWritableKeyPath<LAContext, String?> = \LAContext.localizedFallbackTitle
        let _: ReferenceWritableKeyPath<LAContext, String?> = \LAContext.localizedCancelTitle
        let _: ReferenceWritableKeyPath<LAContext, TimeInterval> = \LAContext.touchIDAuthenticationAllowableReuseDuration
        let _: ReferenceWritableKeyPath<LAContext, Bool> = \LAContext.interactionNotAllowed
        let _: (LAContext) -> (LAPolicy, NSErrorPointer) -> Bool = LAContext.canEvaluatePolicy(_:error:)
        let _: (LAContext) -> () -> Void = LAContext.invalidate
        let _: (LAContext) -> (Data?, LACredentialType) -> Bool = LAContext.setCredential(_:type:)
        let _: (LAContext) -> (LACredentialType) -> Bool = LAContext.isCredentialSet(_:)
        // The reply closures and async forms are pinned by the call sites below (Apple's imported blocks may gain
        // `@Sendable` in an SDK; a call site type-checks either way).
        _ = LAContext.evaluatePolicy(_:localizedReason:reply:)
        _ = LAContext.evaluatePolicy(_:localizedReason:)
        _ = LAContext.evaluateAccessControl(_:operation:localizedReason:reply:)
        _ = LAContext.evaluateAccessControl(_:operation:localizedReason:)
        let _ = { (context: LAContext, access: SecAccessControl) in
            var error: NSError?
            let possible: Bool = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
            context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { (success: Bool, error: (any Error)?) in
                _ = (success, error)
            }
            context.evaluateAccessControl(access, operation: .useItem, localizedReason: "Unlock") { (success: Bool, error: (any Error)?) in
                _ = (success, error)
            }
            let used: Bool = context.setCredential(Data("password".utf8), type: .applicationPassword)
            _ = (possible, error, used, context.isCredentialSet(.applicationPassword))
        }
        let _ = { (context: LAContext, access: SecAccessControl) async throws in
            let evaluated: Bool = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock")
            let allowed: Bool = try await context.evaluateAccessControl(access, operation: .useKeySign, localizedReason: "Sign")
            _ = (evaluated, allowed)
        }
    }

    /// `LAContext.domainState` (macOS 15, iOS 18, visionOS 2; LADomainState.h): the replacement of
    /// `evaluatedPolicyDomainState`. The companion domain is macOS and iOS only.
    static func domainState() {
        if #available(macOS 15, iOS 18, visionOS 2, *) {
            pinHashable(LADomainState.self)
            pinHashable(LADomainStateBiometry.self)
            let _: KeyPath<LAContext, LADomainState> = \LAContext.domainState
            let _: KeyPath<LADomainState, LADomainStateBiometry> = \LADomainState.biometry
            let _: KeyPath<LADomainState, Data?> = \LADomainState.stateHash
            let _: KeyPath<LADomainStateBiometry, LABiometryType> = \LADomainStateBiometry.biometryType
            let _: KeyPath<LADomainStateBiometry, Data?> = \LADomainStateBiometry.stateHash
        }
        #if os(macOS) || os(iOS) || os(Linux)
        if #available(macOS 15, iOS 18, *) {
            pinHashable(LADomainStateCompanion.self)
            let _: KeyPath<LADomainState, LADomainStateCompanion> = \LADomainState.companion
            let _: KeyPath<LADomainStateCompanion, Data?> = \LADomainStateCompanion.stateHash
        }
        #endif
    }

    static func policiesAndTypes() {
        let _: (Int) -> LAPolicy? = LAPolicy.init(rawValue:)
        let _: LAPolicy = LAPolicy.deviceOwnerAuthenticationWithBiometrics
        let _: LAPolicy = LAPolicy.deviceOwnerAuthentication
        #if os(macOS) || os(iOS) || os(Linux)
        if #available(macOS 15, iOS 18, *) {
            let _: LAPolicy = LAPolicy.deviceOwnerAuthenticationWithCompanion
            let _: LAPolicy = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion
        }
        #endif
        #if os(Linux) // watchOS 9 API (this file is not compiled for watchOS)
        let _: LAPolicy = LAPolicy.deviceOwnerAuthenticationWithWristDetection
        #endif
        let _: (Int) -> LABiometryType? = LABiometryType.init(rawValue:)
        let _: LABiometryType = LABiometryType.none
        let _: LABiometryType = LABiometryType.touchID
        let _: LABiometryType = LABiometryType.faceID
        let _: LABiometryType = LABiometryType.opticID
        let _: (Int) -> LACredentialType? = LACredentialType.init(rawValue:)
        let _: LACredentialType = LACredentialType.applicationPassword
        let _: LACredentialType = LACredentialType.smartCardPIN
        let _: (Int) -> LAAccessControlOperation? = LAAccessControlOperation.init(rawValue:)
        let _: LAAccessControlOperation = LAAccessControlOperation.createItem
        let _: LAAccessControlOperation = LAAccessControlOperation.useItem
        let _: LAAccessControlOperation = LAAccessControlOperation.createKey
        let _: LAAccessControlOperation = LAAccessControlOperation.useKeySign
        let _: LAAccessControlOperation = LAAccessControlOperation.useKeyDecrypt
        let _: LAAccessControlOperation = LAAccessControlOperation.useKeyKeyExchange
        let _: TimeInterval = LATouchIDAuthenticationMaximumAllowableReuseDuration
    }

    static func errors() {
        pinHashable(LAError.self)
        pinError(LAError.self)
        let _: (LAError.Code, [String: Any]) -> LAError = LAError.init(_:userInfo:)
        let _: KeyPath<LAError, LAError.Code> = \LAError.code
        let _: KeyPath<LAError, Int> = \LAError.errorCode
        let _: KeyPath<LAError, [String: Any]> = \LAError.errorUserInfo
        let _: KeyPath<LAError, [String: Any]> = \LAError.userInfo
        let _: String = LAError.errorDomain
        let _: String = LAErrorDomain
        let _: (Int) -> LAError.Code? = LAError.Code.init(rawValue:)
        let _: LAError.Code = LAError.Code.authenticationFailed
        let _: LAError.Code = LAError.Code.userCancel
        let _: LAError.Code = LAError.Code.userFallback
        let _: LAError.Code = LAError.Code.systemCancel
        let _: LAError.Code = LAError.Code.passcodeNotSet
        let _: LAError.Code = LAError.Code.biometryNotAvailable
        let _: LAError.Code = LAError.Code.biometryNotEnrolled
        let _: LAError.Code = LAError.Code.biometryLockout
        let _: LAError.Code = LAError.Code.appCancel
        let _: LAError.Code = LAError.Code.invalidContext
        let _: LAError.Code = LAError.Code.notInteractive
        let _: LAError.Code = LAError.authenticationFailed
        let _: LAError.Code = LAError.userCancel
        let _: LAError.Code = LAError.userFallback
        let _: LAError.Code = LAError.systemCancel
        let _: LAError.Code = LAError.passcodeNotSet
        let _: LAError.Code = LAError.biometryNotAvailable
        let _: LAError.Code = LAError.biometryNotEnrolled
        let _: LAError.Code = LAError.biometryLockout
        let _: LAError.Code = LAError.appCancel
        let _: LAError.Code = LAError.invalidContext
        let _: LAError.Code = LAError.notInteractive
        #if os(macOS) || os(Linux)
        let _: LAError.Code = LAError.Code.biometryNotPaired
        let _: LAError.Code = LAError.Code.biometryDisconnected
        let _: LAError.Code = LAError.Code.invalidDimensions
        let _: LAError.Code = LAError.biometryNotPaired
        let _: LAError.Code = LAError.biometryDisconnected
        let _: LAError.Code = LAError.invalidDimensions
        #endif
        #if os(macOS) || os(iOS) || os(Linux)
        if #available(macOS 15, iOS 18, *) {
            let _: LAError.Code = LAError.Code.companionNotAvailable
            let _: LAError.Code = LAError.companionNotAvailable
        }
        #endif
        // How app code matches them: `catch let error as LAError`, `case LAError.userCancel` over any error, NSError.
        let _ = { (error: any Error) in
            if let failure = error as? LAError { _ = (failure.code, failure.errorCode, failure.localizedDescription) }
            if case LAError.userCancel = error { return }
            switch error {
            case LAError.biometryLockout: break
            default: break
            }
            let bridged = LAError(.userCancel) as NSError
            _ = (bridged.domain == LAErrorDomain, bridged.code)
        }
    }

    static func constants() {
        let _: Int32 = kLAPolicyDeviceOwnerAuthenticationWithBiometrics
        let _: Int32 = kLAPolicyDeviceOwnerAuthentication
        let _: Int32 = kLAPolicyDeviceOwnerAuthenticationWithWatch
        let _: Int32 = kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrWatch
        let _: Int32 = kLACredentialTypeApplicationPassword
        let _: Int32 = kLACredentialSmartCardPIN
        let _: String = kLAErrorDomain
        let _: Int32 = kLAErrorAuthenticationFailed
        let _: Int32 = kLAErrorUserCancel
        let _: Int32 = kLAErrorUserFallback
        let _: Int32 = kLAErrorSystemCancel
        let _: Int32 = kLAErrorPasscodeNotSet
        let _: Int32 = kLAErrorTouchIDNotAvailable
        let _: Int32 = kLAErrorTouchIDNotEnrolled
        let _: Int32 = kLAErrorTouchIDLockout
        let _: Int32 = kLAErrorAppCancel
        let _: Int32 = kLAErrorInvalidContext
        let _: Int32 = kLAErrorNotInteractive
        let _: Int32 = kLAErrorBiometryNotAvailable
        let _: Int32 = kLAErrorBiometryNotEnrolled
        let _: Int32 = kLAErrorBiometryLockout
    }

    /// Deprecated API the Linux module still provides: pinned without warnings inside a deprecated function.
    @available(*, deprecated, message: "pins of deprecated API")
    static func deprecated() {
        let _: KeyPath<LAContext, Data?> = \LAContext.evaluatedPolicyDomainState
        let _: LABiometryType = LABiometryType.typeNone
        let _: LABiometryType = LABiometryType.LABiometryNone
        let _: LAError.Code = LAError.Code.touchIDNotAvailable
        let _: LAError.Code = LAError.Code.touchIDNotEnrolled
        let _: LAError.Code = LAError.Code.touchIDLockout
        let _: LAError.Code = LAError.touchIDNotAvailable
        let _: LAError.Code = LAError.touchIDNotEnrolled
        let _: LAError.Code = LAError.touchIDLockout
        #if os(macOS) || os(Linux)
        let _: LAPolicy = LAPolicy.deviceOwnerAuthenticationWithWatch
        let _: LAPolicy = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch
        let _: LAError.Code = LAError.Code.watchNotAvailable
        let _: LAError.Code = LAError.watchNotAvailable
        #endif
    }
}
#endif
