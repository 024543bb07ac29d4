import Foundation
import LatchkeyCrypto

/// The parts of an authenticator's metadata statement (FIDO Metadata Statement §4) the relying party uses:
/// its name and icon for people, its attestation roots for the attestation check. Other members are ignored.
public struct MetadataStatement: Sendable, Decodable {
    public var description: String?
    /// Names in other languages, by language tag ("ko-KR").
    public var alternativeDescriptions: [String: String]
    /// A `data:` URL of a PNG, as published.
    public var icon: String?
    public var aaguid: String?
    public var authenticatorVersion: Int?
    public var protocolFamily: String?
    /// `basic_full`, `basic_surrogate`, `attca`, `anonca`, `none`...
    public var attestationTypes: [String]
    /// The attestation root certificates (base64 DER in the statement); entries that do not parse are dropped.
    public var attestationRootCertificates: [Certificate]

    public init(description: String?, icon: String? = nil, attestationTypes: [String] = [],
                attestationRootCertificates: [Certificate] = []) {
        self.description = description
        self.alternativeDescriptions = [:]
        self.icon = icon
        self.attestationTypes = attestationTypes
        self.attestationRootCertificates = attestationRootCertificates
    }

    enum CodingKeys: String, CodingKey {
        case description, alternativeDescriptions, icon, aaguid, authenticatorVersion, protocolFamily, attestationTypes,
             attestationRootCertificates
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        description = try? c.decodeIfPresent(String.self, forKey: .description)
        alternativeDescriptions = (try? c.decodeIfPresent([String: String].self, forKey: .alternativeDescriptions)) ?? [:]
        icon = try? c.decodeIfPresent(String.self, forKey: .icon)
        aaguid = try? c.decodeIfPresent(String.self, forKey: .aaguid)
        authenticatorVersion = try? c.decodeIfPresent(Int.self, forKey: .authenticatorVersion)
        protocolFamily = try? c.decodeIfPresent(String.self, forKey: .protocolFamily)
        attestationTypes = (try? c.decodeIfPresent([String].self, forKey: .attestationTypes)) ?? []
        let roots = (try? c.decodeIfPresent([String].self, forKey: .attestationRootCertificates)) ?? []
        attestationRootCertificates = roots.compactMap { text in
            Data(base64Encoded: text, options: .ignoreUnknownCharacters).flatMap { try? Certificate(derRepresentation: $0) }
        }
    }
}
