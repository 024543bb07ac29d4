import Foundation
import LatchkeyCrypto

/// `AuthenticatorAttestationResponseJSON`.
public struct AuthenticatorAttestationResponse: Sendable, Hashable, Codable {
    public var clientDataJSON: Base64URLBytes
    public var attestationObject: Base64URLBytes
    public var transports: [String]?
    public var authenticatorData: Base64URLBytes?
    public var publicKey: Base64URLBytes?
    public var publicKeyAlgorithm: Int?

    public init(clientDataJSON: Data, attestationObject: Data, transports: [String]? = nil) {
        self.clientDataJSON = Base64URLBytes(clientDataJSON)
        self.attestationObject = Base64URLBytes(attestationObject)
        self.transports = transports
    }
}

/// `RegistrationResponseJSON`: what the browser's `credential.toJSON()` gives after `create()`.
public struct RegistrationResponse: Sendable, Hashable, Codable {
    public var id: String
    public var rawId: Base64URLBytes
    public var type: String
    public var response: AuthenticatorAttestationResponse
    public var authenticatorAttachment: String?
    public var clientExtensionResults: ClientExtensionResults?

    public init(rawId: Data, response: AuthenticatorAttestationResponse, authenticatorAttachment: String? = nil) {
        self.id = rawId.base64URLEncodedString()
        self.rawId = Base64URLBytes(rawId)
        self.type = "public-key"
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = ClientExtensionResults()
    }
}

/// `AuthenticatorAssertionResponseJSON`.
public struct AuthenticatorAssertionResponse: Sendable, Hashable, Codable {
    public var clientDataJSON: Base64URLBytes
    public var authenticatorData: Base64URLBytes
    public var signature: Base64URLBytes
    public var userHandle: Base64URLBytes?

    public init(clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        self.clientDataJSON = Base64URLBytes(clientDataJSON)
        self.authenticatorData = Base64URLBytes(authenticatorData)
        self.signature = Base64URLBytes(signature)
        self.userHandle = userHandle.map(Base64URLBytes.init)
    }
}

/// `AuthenticationResponseJSON`: what `credential.toJSON()` gives after `get()`.
public struct AuthenticationResponse: Sendable, Hashable, Codable {
    public var id: String
    public var rawId: Base64URLBytes
    public var type: String
    public var response: AuthenticatorAssertionResponse
    public var authenticatorAttachment: String?
    public var clientExtensionResults: ClientExtensionResults?

    public init(rawId: Data, response: AuthenticatorAssertionResponse, authenticatorAttachment: String? = nil) {
        self.id = rawId.base64URLEncodedString()
        self.rawId = Base64URLBytes(rawId)
        self.type = "public-key"
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = ClientExtensionResults()
    }
}

/// The client extension outputs Latchkey reads (`credProps.rk`); others are ignored.
public struct ClientExtensionResults: Sendable, Hashable, Codable {
    public struct CredentialProperties: Sendable, Hashable, Codable {
        public var rk: Bool?
    }
    public var credProps: CredentialProperties?
    public init(credProps: CredentialProperties? = nil) { self.credProps = credProps }
}

/// Credential responses read from the browser's JSON with every failure as a `WebAuthnError`.
public protocol CredentialResponseJSON: Decodable {}
extension RegistrationResponse: CredentialResponseJSON {}
extension AuthenticationResponse: CredentialResponseJSON {}

extension CredentialResponseJSON {
    /// Decodes `credential.toJSON()` output. A field that is not base64url is `.invalidBase64URL(field:)`;
    /// anything else that does not fit (not JSON, a missing field, a wrong type) is `.malformedResponse`.
    ///
    /// The shape browsers send (strings without escapes, the nested `response` and `clientExtensionResults`) is read by
    /// `FlatJSONObject`; anything else goes to `JSONDecoder`, which accepts and refuses exactly as before.
    public init(json: Data) throws(WebAuthnError) {
        if let fast = Self.fast(json) {
            self = fast
        } else {
            self = try Self.decoded(json)
        }
    }

    /// `JSONDecoder`'s value, or its failure as a `WebAuthnError` (also for a member given twice, UTF-16 or deep
    /// nesting: `JSONTextCheck`).
    static func decoded(_ json: Data) throws(WebAuthnError) -> Self {
        if let problem = JSONTextCheck.problem(in: json, maximumDepth: JSONTextCheck.joseDepth) {
            throw .malformedResponse(problem.summary)
        }
        do {
            return try JSONDecoder().decode(Self.self, from: json)
        } catch let error as WebAuthnError {
            throw error
        } catch let error as DecodingError {
            throw .malformedResponse(Self.describe(error))
        } catch {
            throw .malformedResponse("not JSON")
        }
    }

    /// The fast path's value, or nil when `JSONDecoder` must decide.
    static func fast(_ json: Data) -> Self? {
        guard Self.self == RegistrationResponse.self || Self.self == AuthenticationResponse.self,
              let object = FlatJSONObject(json, objectDepth: FastJSON.responseObjectDepth) else { return nil }
        if Self.self == RegistrationResponse.self { return (try? RegistrationResponse(fast: object)) as? Self }
        return (try? AuthenticationResponse(fast: object)) as? Self
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): "\(Base64URLBytes.path(context.codingPath + [key])) missing"
        case .typeMismatch(_, let context): "\(Base64URLBytes.path(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context): "\(Base64URLBytes.path(context.codingPath)) is null"
        case .dataCorrupted(let context): context.codingPath.isEmpty ? "not JSON" : "\(Base64URLBytes.path(context.codingPath)) is invalid"
        @unknown default: "not JSON"
        }
    }
}
