import Foundation
import LatchkeyCrypto

/// The fast path of WebAuthn's JSON: the members of a `FlatJSONObject` read the way the synthesized `Decodable`
/// conformances read them (a required member present with its type, an optional one absent, null or of its type,
/// other members ignored, base64url fields valid). Wherever `JSONDecoder` would throw, or might read a value
/// otherwise (a number with a fraction where an integer is wanted), the fast path gives up with `FastJSON.Fallback`
/// and the caller decodes the same bytes with `JSONDecoder`, which also makes the error. So the fast path can only
/// produce what the full decoder produces.
enum FastJSON {
    struct Fallback: Error {}

    /// `CredentialResponseJSON` documents: the credential, its `response` and `clientExtensionResults`, and
    /// `credProps` inside those.
    static let responseObjectDepth = 2

    static func string(_ value: JSONValue?) throws(Fallback) -> String {
        guard case let .string(text)? = value else { throw Fallback() }
        return text
    }

    static func optionalString(_ value: JSONValue?) throws(Fallback) -> String? {
        switch value {
        case nil, .null?: return nil
        case let .string(text)?: return text
        default: throw Fallback()
        }
    }

    static func optionalBool(_ value: JSONValue?) throws(Fallback) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case let .bool(flag)?: return flag
        default: throw Fallback()
        }
    }

    static func optionalInt(_ value: JSONValue?) throws(Fallback) -> Int? {
        switch value {
        case nil, .null?: return nil
        case let .integer(number)?:
            guard let number = Int(exactly: number) else { throw Fallback() }
            return number
        default: throw Fallback()
        }
    }

    static func optionalStrings(_ value: JSONValue?) throws(Fallback) -> [String]? {
        switch value {
        case nil, .null?: return nil
        case let .array(elements)?:
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for element in elements { strings.append(try string(element)) }
            return strings
        default: throw Fallback()
        }
    }

    static func bytes(_ value: JSONValue?) throws(Fallback) -> Data {
        guard let bytes = Data(base64URLEncoded: try string(value)) else { throw Fallback() }
        return bytes
    }

    static func optionalBytes(_ value: JSONValue?) throws(Fallback) -> Data? {
        guard let text = try optionalString(value) else { return nil }
        guard let bytes = Data(base64URLEncoded: text) else { throw Fallback() }
        return bytes
    }

    /// A nested object's members (as a `FlatJSONObject` reads them), nil when absent or null.
    static func optionalObject(_ value: JSONValue?) throws(Fallback) -> [String: JSONValue]? {
        switch value {
        case nil, .null?: return nil
        case let .object(members)?: return members
        default: throw Fallback()
        }
    }

    static func object(_ value: JSONValue?) throws(Fallback) -> [String: JSONValue] {
        guard case let .object(members)? = value else { throw Fallback() }
        return members
    }
}

extension CollectedClientData {
    /// The usual flat clientDataJSON (strings without escapes, booleans): the fast path of `parse`.
    init(fast object: FlatJSONObject) throws(FastJSON.Fallback) {
        type = try FastJSON.string(object["type"])
        challenge = try FastJSON.string(object["challenge"])
        origin = try FastJSON.string(object["origin"])
        crossOrigin = try FastJSON.optionalBool(object["crossOrigin"])
        topOrigin = try FastJSON.optionalString(object["topOrigin"])
    }
}

extension ClientExtensionResults {
    init(fast members: [String: JSONValue]) throws(FastJSON.Fallback) {
        self.init(credProps: try FastJSON.optionalObject(members["credProps"]).map { (properties) throws(FastJSON.Fallback) in
            CredentialProperties(rk: try FastJSON.optionalBool(properties["rk"]))
        })
    }
}

extension FastJSON {
    /// The members every credential JSON has besides its `response`.
    struct Credential {
        let id: String
        let rawId: Data
        let type: String
        let authenticatorAttachment: String?
        let clientExtensionResults: ClientExtensionResults?
        /// The members of `response`.
        let response: [String: JSONValue]

        init(_ object: FlatJSONObject) throws(Fallback) {
            id = try string(object["id"])
            rawId = try bytes(object["rawId"])
            type = try string(object["type"])
            authenticatorAttachment = try optionalString(object["authenticatorAttachment"])
            clientExtensionResults = try FastJSON.optionalObject(object["clientExtensionResults"]).map {
                (members) throws(Fallback) in try ClientExtensionResults(fast: members)
            }
            response = try FastJSON.object(object["response"])
        }
    }
}

extension RegistrationResponse {
    init(fast object: FlatJSONObject) throws(FastJSON.Fallback) {
        let credential = try FastJSON.Credential(object), fields = credential.response
        var response = AuthenticatorAttestationResponse(
            clientDataJSON: try FastJSON.bytes(fields["clientDataJSON"]),
            attestationObject: try FastJSON.bytes(fields["attestationObject"]),
            transports: try FastJSON.optionalStrings(fields["transports"]))
        response.authenticatorData = try FastJSON.optionalBytes(fields["authenticatorData"]).map(Base64URLBytes.init)
        response.publicKey = try FastJSON.optionalBytes(fields["publicKey"]).map(Base64URLBytes.init)
        response.publicKeyAlgorithm = try FastJSON.optionalInt(fields["publicKeyAlgorithm"])
        self.init(rawId: credential.rawId, response: response, authenticatorAttachment: credential.authenticatorAttachment)
        (id, type, clientExtensionResults) = (credential.id, credential.type, credential.clientExtensionResults)
    }
}

extension AuthenticationResponse {
    init(fast object: FlatJSONObject) throws(FastJSON.Fallback) {
        let credential = try FastJSON.Credential(object), fields = credential.response
        let response = AuthenticatorAssertionResponse(
            clientDataJSON: try FastJSON.bytes(fields["clientDataJSON"]),
            authenticatorData: try FastJSON.bytes(fields["authenticatorData"]),
            signature: try FastJSON.bytes(fields["signature"]),
            userHandle: try FastJSON.optionalBytes(fields["userHandle"]))
        self.init(rawId: credential.rawId, response: response, authenticatorAttachment: credential.authenticatorAttachment)
        (id, type, clientExtensionResults) = (credential.id, credential.type, credential.clientExtensionResults)
    }
}
