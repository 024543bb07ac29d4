import Foundation

/// The device side of App Attest that `AppAttestClient` drives: `DCAppAttestService`'s three calls with the kit's errors.
/// `DeviceCheckAppAttestProvider` is Apple's service (on Linux, this package's `DeviceCheck` module over a TPM).
public protocol AppAttestProvider: Sendable {
    /// Whether the device provides App Attest.
    var isSupported: Bool { get }
    /// `generateKey()`: a new key's identifier (base64 of SHA-256 of its public key).
    func generateKey() async throws(AppAttestClientError) -> String
    /// `attestKey(_:clientDataHash:)`: the attestation object.
    func attestKey(_ keyID: String, clientDataHash: Data) async throws(AppAttestClientError) -> Data
    /// `generateAssertion(_:clientDataHash:)`: the assertion object.
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws(AppAttestClientError) -> Data
}

extension AppAttestClientError {
    /// `DCErrorDomain`.
    static let deviceCheckErrorDomain = "com.apple.devicecheck.error"

    /// A DeviceCheck failure as the client's error, read by the NSError's domain and code (Apple's raw values:
    /// 1 featureUnsupported, 3 invalidKey), so this file needs no DeviceCheck.
    init(deviceCheck error: any Error) {
        let error = error as NSError
        guard error.domain == Self.deviceCheckErrorDomain else {
            self = .deviceFailure(code: -1)
            return
        }
        switch error.code {
        case 1: self = .unsupported
        case 3: self = .invalidKey
        default: self = .deviceFailure(code: error.code)
        }
    }
}
