#if canImport(DeviceCheck)
import DeviceCheck
import Foundation

/// App Attest over `DCAppAttestService.shared`: Apple's framework on Apple platforms, this package's `DeviceCheck`
/// module on Linux (keys in a TPM, attestations from the development authority). Translation only.
public struct DeviceCheckAppAttestProvider: AppAttestProvider {
    public init() {}

    public var isSupported: Bool { DCAppAttestService.shared.isSupported }

    public func generateKey() async throws(AppAttestClientError) -> String {
        do { return try await DCAppAttestService.shared.generateKey() } catch {
            throw AppAttestClientError(deviceCheck: error)
        }
    }

    public func attestKey(_ keyID: String, clientDataHash: Data) async throws(AppAttestClientError) -> Data {
        do { return try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash) } catch {
            throw AppAttestClientError(deviceCheck: error)
        }
    }

    public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws(AppAttestClientError) -> Data {
        do { return try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash) } catch {
            throw AppAttestClientError(deviceCheck: error)
        }
    }
}
#endif
