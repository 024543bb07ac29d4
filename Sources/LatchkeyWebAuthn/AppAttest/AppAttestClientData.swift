import Foundation
import LatchkeyCrypto

/// The client data an App Attest assertion of an HTTP request signs, which both ends build from the request itself:
///
/// ```
/// LatchkeyAppAttest/1 LF <method> LF <path> LF base64url(SHA256(body)) LF base64url(challenge)
/// ```
///
/// `method` upper-case, `path` the request target's path as sent (percent-encoding kept, no query string), the
/// challenge a one-time challenge of `POST /v1/app-attest/challenge`. The device signs `SHA256(clientData)`
/// (`generateAssertion(_:clientDataHash:)`); the server rebuilds the bytes from what it received, so an assertion is
/// good for one request — this method, this path, this body — once.
public enum AppAttestClientData {
    /// The first line: the layout's name and version.
    public static let version = "LatchkeyAppAttest/1"

    /// The client data of a request.
    public static func request(method: String, path: String, body: Data, challenge: Data) -> Data {
        var text = version
        text += "\n" + method.uppercased()
        text += "\n" + path
        text += "\n" + Data(SHA256.hash(data: body)).base64URLEncodedString()
        text += "\n" + challenge.base64URLEncodedString()
        return Data(text.utf8)
    }

    /// `SHA256(clientData)`, what `generateAssertion(_:clientDataHash:)` is given.
    public static func requestHash(method: String, path: String, body: Data, challenge: Data) -> Data {
        Data(SHA256.hash(data: request(method: method, path: path, body: body, challenge: challenge)))
    }

    /// The client data hash of an attestation, as Apple's guide has it: `SHA256(challenge)`, the one-time challenge's
    /// bytes as the server issued them.
    public static func attestationHash(challenge: Data) -> Data { Data(SHA256.hash(data: challenge)) }
}

/// The `X-App-Attest-Assertion` header of a request: the key identifier, the one-time challenge the client data names
/// and the assertion, each base64url without padding, joined by periods.
public struct AppAttestRequestAssertion: Sendable, Hashable {
    /// The header's name.
    public static let headerName = "X-App-Attest-Assertion"
    /// Longest header value accepted.
    public static let maxLength = 2048

    /// The key identifier (`SHA256` of the attested public key, 32 bytes).
    public var keyID: Data
    /// The one-time challenge inside the client data.
    public var challenge: Data
    /// The assertion (`generateAssertion(_:clientDataHash:)`'s CBOR).
    public var assertion: Data

    public init(keyID: Data, challenge: Data, assertion: Data) {
        self.keyID = keyID
        self.challenge = challenge
        self.assertion = assertion
    }

    /// Reads a header value: three non-empty base64url parts separated by periods.
    public init(headerValue: String) throws(AppAttestError) {
        guard headerValue.utf8.count <= Self.maxLength else { throw .headerMalformed("longer than \(Self.maxLength) bytes") }
        let parts = headerValue.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .headerMalformed("it needs three parts separated by periods") }
        var decoded: [Data] = []
        for (part, name) in zip(parts, ["key id", "challenge", "assertion"]) {
            guard !part.isEmpty, let data = Data(base64URLEncoded: Substring(part)), !data.isEmpty else {
                throw .headerMalformed("the \(name) is not base64url")
            }
            decoded.append(data)
        }
        keyID = decoded[0]
        challenge = decoded[1]
        assertion = decoded[2]
    }

    /// The header value.
    public var headerValue: String {
        [keyID, challenge, assertion].map { $0.base64URLEncodedString() }.joined(separator: ".")
    }
}
