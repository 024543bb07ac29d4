import Foundation

/// The App Attest environment an app's entitlement (`com.apple.developer.devicecheck.appattest-environment`) names,
/// which the attestation's AAGUID states: `appattestdevelop` for development, `appattest` followed by seven zero bytes
/// for production ("Validating apps that connect to your server", step 8).
public enum AppAttestEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case development
    case production

    /// The 16-byte AAGUID an attestation of this environment carries.
    public var aaguid: Data {
        switch self {
        case .development: Data("appattestdevelop".utf8)
        case .production: Data("appattest".utf8) + Data(count: 7)
        }
    }

    /// The environment whose AAGUID is `aaguid`, if any.
    public init?(aaguid: Data) {
        guard let match = Self.allCases.first(where: { $0.aaguid == aaguid }) else { return nil }
        self = match
    }
}
