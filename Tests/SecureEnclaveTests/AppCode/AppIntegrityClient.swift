// App code as an iOS app writes App Attest, after Apple's "Establishing your app's integrity": Foundation, CryptoKit and
// DeviceCheck only, the same file for iOS and Linux. Completion handlers first, then the async forms.
import CryptoKit
import DeviceCheck
import Foundation

/// Generates and attests a key, then asserts requests with it.
final class AppIntegrityClient: Sendable {
    // MARK: Completion handlers

    /// Creates a new App Attest key when the device supports the service.
    func makeKey(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        let service = DCAppAttestService.shared
        guard service.isSupported else {
            completion(.failure(DCError(.featureUnsupported)))
            return
        }
        service.generateKey { keyId, error in
            guard let keyId, error == nil else {
                completion(.failure(error ?? DCError(.unknownSystemFailure)))
                return
            }
            // Cache keyId for subsequent operations.
            completion(.success(keyId))
        }
    }

    /// Attests the key for a one-time challenge from the server.
    func attest(keyId: String, challenge: Data, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        let hash = Data(SHA256.hash(data: challenge))
        DCAppAttestService.shared.attestKey(keyId, clientDataHash: hash) { attestation, error in
            guard let attestation, error == nil else {
                completion(.failure(error ?? DCError(.unknownSystemFailure)))
                return
            }
            // Send the attestation object to the server for verification.
            completion(.success(attestation))
        }
    }

    /// Asserts a request (its client data: the request with the server's challenge).
    func assert(keyId: String, clientData: Data, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        let clientDataHash = Data(SHA256.hash(data: clientData))
        DCAppAttestService.shared.generateAssertion(keyId, clientDataHash: clientDataHash) { assertion, error in
            guard let assertion, error == nil else {
                completion(.failure(error ?? DCError(.unknownSystemFailure)))
                return
            }
            // Send the assertion and the request to the server.
            completion(.success(assertion))
        }
    }

    // MARK: async

    /// A new key, attested for `challenge`.
    func attestedKey(challenge: Data) async throws -> (keyId: String, attestation: Data) {
        let service = DCAppAttestService.shared
        guard service.isSupported else { throw DCError(.featureUnsupported) }
        let keyId = try await service.generateKey()
        let attestation = try await service.attestKey(keyId, clientDataHash: Data(SHA256.hash(data: challenge)))
        return (keyId, attestation)
    }

    /// An assertion of `clientData`.
    func assertion(keyId: String, clientData: Data) async throws -> Data {
        try await DCAppAttestService.shared.generateAssertion(keyId, clientDataHash: Data(SHA256.hash(data: clientData)))
    }

    /// Whether an error means the key is no longer usable and a new one must be made and attested.
    static func needsNewKey(_ error: any Error) -> Bool {
        switch error {
        case DCError.invalidKey: return true
        default: return false
        }
    }
}
