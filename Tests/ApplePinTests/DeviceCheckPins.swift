#if canImport(DeviceCheck)
import DeviceCheck
import Foundation

// Apple's DeviceCheck API (DCAppAttestService.h: macOS 11, iOS 14, tvOS 15, watchOS 9; DCDevice.h and DCError.h:
// iOS 11, macOS 10.15, tvOS 11, watchOS 9), pinned as in SecurityPins.swift. The Objective-C properties import as
// `shared` / `current` and `isSupported`; each completion-handler method has its async form. The completion blocks
// are not marked `@Sendable` in the headers; the call sites below type-check either way.

/// Pins of DeviceCheck (compiled, not run).
enum DeviceCheckPins {
    static func appAttest() {
        if #available(macOS 11.0, iOS 14.0, tvOS 15.0, watchOS 9.0, *) {
            let _: DCAppAttestService = DCAppAttestService.shared
            let _: KeyPath<DCAppAttestService, Bool> = \DCAppAttestService.isSupported
            let _: () -> DCAppAttestService = DCAppAttestService.init
            _ = DCAppAttestService.generateKey(completionHandler:)
            _ = DCAppAttestService.attestKey(_:clientDataHash:completionHandler:)
            _ = DCAppAttestService.generateAssertion(_:clientDataHash:completionHandler:)
            _ = DCAppAttestService.attestKey(_:clientDataHash:)
            _ = DCAppAttestService.generateAssertion(_:clientDataHash:)
            let _ = { (service: DCAppAttestService, keyId: String, hash: Data) in
                service.generateKey { (keyId: String?, error: (any Error)?) in _ = (keyId, error) }
                service.attestKey(keyId, clientDataHash: hash) { (attestation: Data?, error: (any Error)?) in
                    _ = (attestation, error)
                }
                service.generateAssertion(keyId, clientDataHash: hash) { (assertion: Data?, error: (any Error)?) in
                    _ = (assertion, error)
                }
            }
            let _ = { (service: DCAppAttestService, keyId: String, hash: Data) async throws in
                let key: String = try await service.generateKey()
                let attestation: Data = try await service.attestKey(keyId, clientDataHash: hash)
                let assertion: Data = try await service.generateAssertion(keyId, clientDataHash: hash)
                _ = (key, attestation, assertion)
            }
        }
    }

    static func device() {
        let _: DCDevice = DCDevice.current
        let _: KeyPath<DCDevice, Bool> = \DCDevice.isSupported
        let _: () -> DCDevice = DCDevice.init
        _ = DCDevice.generateToken(completionHandler:)
        let _ = { (device: DCDevice) in
            device.generateToken { (token: Data?, error: (any Error)?) in _ = (token, error) }
        }
        let _ = { (device: DCDevice) async throws in
            let token: Data = try await device.generateToken()
            _ = token
        }
    }

    static func errors() {
        pinHashable(DCError.self)
        pinError(DCError.self)
        let _: (DCError.Code, [String: Any]) -> DCError = DCError.init(_:userInfo:)
        let _: KeyPath<DCError, DCError.Code> = \DCError.code
        let _: KeyPath<DCError, Int> = \DCError.errorCode
        let _: KeyPath<DCError, [String: Any]> = \DCError.errorUserInfo
        let _: KeyPath<DCError, [String: Any]> = \DCError.userInfo
        let _: String = DCError.errorDomain
        let _: String = DCErrorDomain
        let _: (Int) -> DCError.Code? = DCError.Code.init(rawValue:)
        let _: DCError.Code = DCError.Code.unknownSystemFailure
        let _: DCError.Code = DCError.Code.featureUnsupported
        let _: DCError.Code = DCError.Code.invalidInput
        let _: DCError.Code = DCError.Code.invalidKey
        let _: DCError.Code = DCError.Code.serverUnavailable
        let _: DCError.Code = DCError.unknownSystemFailure
        let _: DCError.Code = DCError.featureUnsupported
        let _: DCError.Code = DCError.invalidInput
        let _: DCError.Code = DCError.invalidKey
        let _: DCError.Code = DCError.serverUnavailable
        let _ = { (error: any Error) -> Bool in
            switch error {
            case DCError.invalidKey: return true
            default: return false
            }
        }
    }
}
#endif
