import Foundation
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// A registration whose credential key is replaced by `key` (when given) and whose attestation object is
/// `fmt` + the statement `build` makes from the final authenticator data and the client data hash.
func attestedRegistration(_ f: PasskeyFixture, key: COSEKey?,
                          build: (_ authData: Data, _ clientDataHash: Data) throws -> (String, CBOR)) async throws
    -> RegistrationResponse {
    try await attestedRegistration(f, keyBytes: key?.encoded, build: build)
}

/// The same with the credential key given as COSE_Key bytes (keys LatchkeyCrypto's `COSEKey` does not model, RS1).
func attestedRegistration(_ f: PasskeyFixture, keyBytes: Data?,
                          build: (_ authData: Data, _ clientDataHash: Data) throws -> (String, CBOR)) async throws
    -> RegistrationResponse {
    var response = try await f.registrationResponse()
    let original = try AttestationObject(response.response.attestationObject.data)
    var authData = original.authenticatorData.raw
    if let keyBytes {
        let cred = try #require(original.authenticatorData.attestedCredential)
        authData = authData.prefix(37 + 18 + cred.credentialID.count) + keyBytes
    }
    let hash = Data(SHA256.hash(data: response.response.clientDataJSON.data))
    let (fmt, statement) = try build(authData, hash)
    response.response.attestationObject = Base64URLBytes(CBOR.map([
        "fmt": .textString(fmt), "attStmt": statement, "authData": .byteString(authData)]).encoded)
    return response
}

extension P256.Signing.PublicKey {
    var coseKey: COSEKey {
        let point = x963Representation
        return .ec2(algorithm: .es256, curve: .p256, x: point[1..<33], y: point[33..<65])
    }
    var x: Data { x963Representation[1..<33] }
    var y: Data { x963Representation[33..<65] }
}

/// A minimal DER writer for test fixtures (KeyDescription extensions).
enum DERWriter {
    static func tlv(_ tag: [UInt8], _ content: Data) -> Data {
        var out = Data(tag)
        let n = content.count
        if n < 0x80 { out.append(UInt8(n)) }
        else if n < 0x100 { out += [0x81, UInt8(n)] }
        else { out += [0x82, UInt8(n >> 8), UInt8(n & 0xff)] }
        return out + content
    }
    static func sequence(_ items: Data...) -> Data { tlv([0x30], items.reduce(Data(), +)) }
    static func sequence(_ items: [Data]) -> Data { tlv([0x30], items.reduce(Data(), +)) }
    static func set(_ items: [Data]) -> Data { tlv([0x31], items.reduce(Data(), +)) }
    static func integer(_ v: UInt8) -> Data { v < 0x80 ? Data([0x02, 0x01, v]) : Data([0x02, 0x02, 0x00, v]) }
    static func enumerated(_ v: UInt8) -> Data { Data([0x0a, 0x01, v]) }
    static func octets(_ d: Data) -> Data { tlv([0x04], d) }
    static let null = Data([0x05, 0x00])
    /// `[number] EXPLICIT` (constructed, context-specific), high tag numbers included.
    static func explicit(_ number: Int, _ content: Data) -> Data {
        if number < 31 { return tlv([0xa0 | UInt8(number)], content) }
        var groups: [UInt8] = []
        var n = number
        repeat { groups.insert(UInt8(n & 0x7f), at: 0); n >>= 7 } while n > 0
        for i in 0..<(groups.count - 1) { groups[i] |= 0x80 }
        return tlv([0xbf] + groups, content)
    }
}

/// TPM 2.0 structure writers (big-endian) for `tpm` statements.
enum TPMWriter {
    static func u16(_ v: UInt16) -> Data { Data([UInt8(v >> 8), UInt8(v & 0xff)]) }
    static func u32(_ v: UInt32) -> Data { Data([UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]) }
    static func sized(_ d: Data) -> Data { u16(UInt16(d.count)) + d }

    /// TPMT_PUBLIC of an ECC P-256 signing key, nameAlg SHA-256 unless told.
    static func eccPublic(x: Data, y: Data, curve: UInt16 = 0x0003, nameAlg: UInt16 = 0x000b) -> Data {
        u16(0x0023) + u16(nameAlg) + u32(0x0006_0472) + sized(Data())
            + u16(0x0010) + u16(0x0018) + u16(0x000b) + u16(curve) + u16(0x0010) + sized(x) + sized(y)
    }

    /// TPMT_PUBLIC of an RSA signing key, exponent 0 (the default 65537), nameAlg SHA-256.
    static func rsaPublic(modulus: Data, bits: UInt16 = 2048) -> Data {
        u16(0x0001) + u16(0x000b) + u32(0x0006_0472) + sized(Data())
            + u16(0x0010) + u16(0x0010) + u16(bits) + u32(0) + sized(modulus)
    }

    /// The TPM name of a pubArea: nameAlg (SHA-256) || SHA-256(pubArea).
    static func name(_ pubArea: Data) -> Data { u16(0x000b) + SHA256.hash(data: pubArea) }

    /// TPMS_ATTEST with TPMS_CERTIFY_INFO.
    static func certInfo(magic: UInt32 = 0xff54_4347, type: UInt16 = 0x8017, extraData: Data, name: Data) -> Data {
        u32(magic) + u16(type) + sized(u16(0x000b) + Data(repeating: 0x11, count: 32)) + sized(extraData)
            + Data(repeating: 0, count: 17) + Data(repeating: 0x22, count: 8)
            + sized(name) + sized(u16(0x000b) + Data(repeating: 0x33, count: 32))
    }
}
