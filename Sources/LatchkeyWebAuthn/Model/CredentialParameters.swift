import Foundation

/// COSE algorithm identifiers a relying party may ask for (IANA COSE Algorithms registry).
public enum COSEAlgorithmIdentifier: Int, Sendable, Hashable, Codable, CaseIterable {
    case es256 = -7
    case es384 = -35
    case edDSA = -8
    case rs256 = -257
    case ps256 = -37
}

/// `PublicKeyCredentialParameters`.
public struct PublicKeyCredentialParameters: Sendable, Hashable, Codable {
    public var type: String
    public var alg: Int
    public init(alg: COSEAlgorithmIdentifier) {
        self.type = "public-key"
        self.alg = alg.rawValue
    }
}

/// `PublicKeyCredentialDescriptorJSON`: names a credential in allow/exclude lists.
public struct PublicKeyCredentialDescriptor: Sendable, Hashable, Codable {
    public var type: String
    public var id: Base64URLBytes
    public var transports: [String]?
    public init(id: Data, transports: [String]? = nil) {
        self.type = "public-key"
        self.id = Base64URLBytes(id)
        self.transports = transports
    }
}

/// `UserVerificationRequirement`.
public enum UserVerificationRequirement: String, Sendable, Hashable, Codable {
    case required, preferred, discouraged
}

/// `ResidentKeyRequirement`.
public enum ResidentKeyRequirement: String, Sendable, Hashable, Codable {
    case required, preferred, discouraged
}

/// `AttestationConveyancePreference`.
public enum AttestationConveyancePreference: String, Sendable, Hashable, Codable {
    case none, indirect, direct, enterprise
}

/// `AuthenticatorSelectionCriteria`.
public struct AuthenticatorSelectionCriteria: Sendable, Hashable, Codable {
    public var authenticatorAttachment: String?
    public var residentKey: ResidentKeyRequirement?
    public var requireResidentKey: Bool?
    public var userVerification: UserVerificationRequirement?

    public init(authenticatorAttachment: String? = nil, residentKey: ResidentKeyRequirement? = .preferred,
                userVerification: UserVerificationRequirement? = .preferred) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = residentKey == .required
        self.userVerification = userVerification
    }
}
