import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), parsed strictly and verified against an allow-list.
public struct JWS: Sendable {
    /// Tokens longer than this are rejected before any decoding (64 KiB).
    public static let defaultMaximumSize = 64 * 1024

    /// The protected header.
    public let header: JWSHeader
    /// The decoded payload.
    public let payload: Data
    /// ASCII(BASE64URL(header) || "." || BASE64URL(payload)), the bytes the signature covers.
    public let signingInput: Data
    /// The decoded signature (raw r||s for ECDSA).
    public let signature: Data

    /// Parses a compact JWS: exactly three base64url parts, a JSON-object header with a supported
    /// `alg` (`none` and HS* throw `.unsupportedAlgorithm`), and at most `maximumSize` bytes.
    public init(compactSerialization token: String, maximumSize: Int = JWS.defaultMaximumSize) throws(CryptoError) {
        guard token.utf8.count <= maximumSize else { throw .inputTooLarge(limit: maximumSize) }
        var token = token
        let parsed: Result<JWS, CryptoError> = token.withUTF8 { bytes in
            do throws(CryptoError) { return .success(try JWS(bytes: bytes)) } catch { return .failure(error) }
        }
        self = try parsed.get()
    }

    /// One pass over the token's UTF-8: the two dots, then each part decoded straight from the buffer.
    private init(bytes: UnsafeBufferPointer<UInt8>) throws(CryptoError) {
        var dots: [Int] = []
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            dots.append(i)
            if dots.count > 2 { break }
        }
        guard dots.count == 2 else {
            let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).count
            throw .malformedInput("a compact JWS has 3 parts, found \(parts)")
        }
        let header = UnsafeBufferPointer(rebasing: bytes[0..<dots[0]])
        let payload = UnsafeBufferPointer(rebasing: bytes[(dots[0] + 1)..<dots[1]])
        let signature = UnsafeBufferPointer(rebasing: bytes[(dots[1] + 1)...])
        guard !header.isEmpty, let headerJSON = Base64URLCoder.decode(buffer: header) else {
            throw .malformedInput("JWS header base64url")
        }
        // The header first, so that `alg: none` is reported as such even with its empty signature.
        self.header = try JWSHeader(json: headerJSON)
        guard !signature.isEmpty,
              let payloadBytes = Base64URLCoder.decode(buffer: payload),
              let signatureBytes = Base64URLCoder.decode(buffer: signature)
        else { throw .malformedInput("JWS base64url") }
        self.payload = payloadBytes
        self.signature = signatureBytes
        self.signingInput = Data(UnsafeBufferPointer(rebasing: bytes[0..<dots[1]]))
    }

    /// Signs `payload` and returns the compact serialization. `header.alg` must suit `key`.
    public static func sign(payload: Data, header: JWSHeader, key: JWSSigningKey) throws(CryptoError) -> String {
        let input = Base64URLCoder.encode(try header.encoded()) + "." + Base64URLCoder.encode(payload)
        let signature = try key.sign(Data(input.utf8), algorithm: header.alg)
        return input + "." + Base64URLCoder.encode(signature)
    }

    /// Verifies the signature. Throws `.unsupportedAlgorithm` when `alg` is not in `allowedAlgorithms`
    /// or does not suit the key's type (an ES256 header with an RSA key, ...), `.authenticationFailure`
    /// when the signature is wrong.
    public func verify(using key: JWSVerificationKey, allowedAlgorithms: Set<JWSAlgorithm>) throws(CryptoError) {
        guard allowedAlgorithms.contains(header.alg) else { throw .unsupportedAlgorithm("\(header.alg.rawValue) is not allowed") }
        guard key.supports(header.alg) else {
            throw .unsupportedAlgorithm("\(header.alg.rawValue) with a \(key.typeName) key")
        }
        guard key.isValid(signature: signature, signingInput: signingInput, algorithm: header.alg) else {
            throw .authenticationFailure
        }
    }
}
