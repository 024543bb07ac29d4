#if os(Linux)
import Foundation

/// A service that you use to validate the instance of your app running on a device. On Linux its keys are
/// `SecureEnclave` keys in the TPM and its attestations come from the development App Attest authority
/// (`LatchkeyAppAttestAuthority`); `LatchkeyDeviceCheckConfiguration` names the App ID and where keys are kept.
@available(macOS 11.0, iOS 14.0, tvOS 15.0, watchOS 9.0, *)
open class DCAppAttestService: NSObject {
    // The service keeps no state of its own (keys are files, the configuration is read per call).
    nonisolated(unsafe) private static let sharedService = DCAppAttestService()

    /// The shared App Attest service that you use to validate your app.
    open class var shared: DCAppAttestService { sharedService }

    public override init() { super.init() }

    /// Whether this device provides the App Attest service: a TPM answers and the app has an App ID.
    open var isSupported: Bool { AppAttestDevice.isSupported(.current) }

    /// Creates a new cryptographic key for use with the App Attest service.
    open func generateKey(completionHandler: @escaping (String?, (any Error)?) -> Void) {
        DeviceCheckWork.here().complete({ device throws(DCError) in try device.generateKey() },
                                        CompletionHandler(completionHandler))
    }

    /// Creates a new cryptographic key for use with the App Attest service.
    open func generateKey() async throws -> String {
        try await DeviceCheckWork.here().perform { device throws(DCError) in try device.generateKey() }
    }

    /// Asks the attestation authority to attest to the validity of a generated cryptographic key.
    open func attestKey(_ keyId: String, clientDataHash: Data, completionHandler: @escaping (Data?, (any Error)?) -> Void) {
        DeviceCheckWork.here().complete({ device throws(DCError) in try device.attestKey(keyId, clientDataHash: clientDataHash) },
                                        CompletionHandler(completionHandler))
    }

    /// Asks the attestation authority to attest to the validity of a generated cryptographic key.
    open func attestKey(_ keyId: String, clientDataHash: Data) async throws -> Data {
        try await DeviceCheckWork.here().perform { device throws(DCError) in
            try device.attestKey(keyId, clientDataHash: clientDataHash)
        }
    }

    /// Creates a block of data that demonstrates the legitimacy of an instance of your app running on a device.
    open func generateAssertion(_ keyId: String, clientDataHash: Data,
                                completionHandler: @escaping (Data?, (any Error)?) -> Void) {
        DeviceCheckWork.here().complete({ device throws(DCError) in
            try device.generateAssertion(keyId, clientDataHash: clientDataHash)
        }, CompletionHandler(completionHandler))
    }

    /// Creates a block of data that demonstrates the legitimacy of an instance of your app running on a device.
    open func generateAssertion(_ keyId: String, clientDataHash: Data) async throws -> Data {
        try await DeviceCheckWork.here().perform { device throws(DCError) in
            try device.generateAssertion(keyId, clientDataHash: clientDataHash)
        }
    }
}
#endif
