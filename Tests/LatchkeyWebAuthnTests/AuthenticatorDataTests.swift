import Foundation
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn

@Suite struct AuthenticatorDataTests {
    static let rpIDHash = Data(repeating: 0xab, count: 32)
    static let coseKey = CBOR.map([1: 2, 3: -7, -1: 1, -2: .byteString(Data(repeating: 1, count: 32)),
                                   -3: .byteString(Data(repeating: 2, count: 32))]).encoded

    static func make(flags: UInt8, count: UInt32 = 7, credentialID: Data? = nil, key: Data = coseKey,
                     extensions: Data? = nil, trailing: Data = Data()) -> Data {
        var d = rpIDHash
        d.append(flags)
        withUnsafeBytes(of: count.bigEndian) { d.append(contentsOf: $0) }
        if let id = credentialID {
            d.append(Data(repeating: 0x11, count: 16))
            d.append(UInt8(id.count >> 8)); d.append(UInt8(id.count & 0xff))
            d.append(id)
            d.append(key)
        }
        if let extensions { d.append(extensions) }
        d.append(trailing)
        return d
    }

    @Test func parsesAssertionData() throws {
        let data = try AuthenticatorData(Self.make(flags: 0x05, count: 0x0102_0304))
        #expect(data.rpIDHash == Self.rpIDHash)
        #expect(data.userPresent && data.userVerified && !data.backupEligible)
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredential == nil && data.extensions == nil)
    }

    @Test func parsesAttestedCredentialAndExtensions() throws {
        let ext = CBOR.map(["credProtect": 2]).encoded
        let raw = Self.make(flags: 0x45 | 0x80, credentialID: Data([9, 9, 9]), extensions: ext)
        let data = try AuthenticatorData(raw)
        let cred = try #require(data.attestedCredential)
        #expect(cred.credentialID == Data([9, 9, 9]))
        #expect(cred.aaguid == Data(repeating: 0x11, count: 16))
        #expect(cred.publicKeyCOSE == Self.coseKey)
        #expect(cred.publicKey[int: 3]?.intValue == -7)
        #expect(data.extensions?[text: "credProtect"]?.intValue == 2)
        #expect(data.raw == raw)
    }

    @Test func rejectsMalformedInput() {
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(Data(count: 36)) }
        // AT flag without credential data.
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(Self.make(flags: 0x41)) }
        // Trailing bytes after the structure.
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(Self.make(flags: 0x01, trailing: Data([0]))) }
        // Credential id longer than the data.
        var truncated = Self.make(flags: 0x41, credentialID: Data([1, 2, 3]))
        truncated = truncated.prefix(37 + 18 + 2)
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(truncated) }
        // Credential public key cut short.
        let cut = Self.make(flags: 0x41, credentialID: Data([1]), key: Self.coseKey.prefix(10))
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(cut) }
        // ED flag with no extension map.
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(Self.make(flags: 0x81)) }
        // Credential id over 1023 bytes.
        let long = Self.make(flags: 0x41, credentialID: Data(repeating: 1, count: 1024))
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(long) }
    }

    @Test func parsesClientData() throws {
        let json = Data(#"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","crossOrigin":false}"#.utf8)
        let client = try CollectedClientData.parse(json)
        #expect(client.type == "webauthn.get")
        #expect(client.challengeBytes == Data([0, 1, 2]))
        #expect(client.crossOrigin == false)
        #expect(throws: WebAuthnError.self) { try CollectedClientData.parse(Data("{".utf8)) }
        #expect(throws: WebAuthnError.self) { try CollectedClientData.parse(Data(count: 20_000)) }
    }

    @Test func attestationObjectRoundTrip() throws {
        let auth = try AuthenticatorData(Self.make(flags: 0x45, credentialID: Data([7])))
        let object = AttestationObject(format: "none", statement: .map([]), authenticatorData: auth)
        let parsed = try AttestationObject(object.encoded)
        #expect(parsed.format == "none")
        #expect(parsed.authenticatorData.attestedCredential?.credentialID == Data([7]))
        #expect(throws: WebAuthnError.self) { try AttestationObject(CBOR.map(["fmt": "none"]).encoded) }
        #expect(throws: WebAuthnError.self) { try AttestationObject(Data([0xff])) }
    }
}
