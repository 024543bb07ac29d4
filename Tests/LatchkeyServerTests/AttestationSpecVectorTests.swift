import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// The W3C WebAuthn Level 3 §16 test vectors for `tpm` and `android-key` (ES256 credentials, RP ID
/// example.org), verified against the published attestation root (`W3CTestVectorTests.attestationRoot`).
@Suite(.offCooperativePool) struct AttestationSpecVectorTests {
    static func hex(_ text: String) -> Data { W3CTestVectorTests.hex(text) }

    /// §16 "TPM Attestation with ES256 Credential", registration and authentication.
    static let tpmES256 = W3CTestVectorTests.Vector(
        name: "tpm-es256", format: "tpm",
        registrationChallenge: hex("cfc82cdf1ceee876120aa88f0364f0910193460cfb97a317b2fe090694f9a299"),
        credentialID: hex("ec27bec7521c894bbb821105ea3724c90e770cf1fa354157ef18d0f18f78bea9"),
        registrationClientDataJSON: hex("""
            7b2274797065223a22776562617574686e2e637265617465222c226368616c6c656e6765223a227a38677333787a7536
            48595343716950413254776b51475452677a376c364d587376344a427054356f706b222c226f726967696e223a226874
            7470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73657d
            """),
        attestationObject: hex("""
            a363666d746374706d6761747453746d74a663616c67266373696758463044022066e5826a652091030fd444e33c3eca
            2bc6dc548cf3045013addb38aa6457a21002203f3a5c95c9e707d0e555041bcc8698ee4ebc04e26cc8bae45970547178
            9851766376657263322e30637835638159023a30820236308201dca0030201020210311fc42da0ab10c43a9b1bf3a75e
            34e2300a06082a8648ce3d0403023062311e301c06035504030c15576562417574686e207465737420766563746f7273
            310c300a060355040a0c0357334331253023060355040b0c1c41757468656e74696361746f7220417474657374617469
            6f6e204341310b30090603550406130241413020170d3234303130313030303030305a180f3330323430313031303030
            3030305a30003059301306072a8648ce3d020106082a8648ce3d03010703420004c54e3f109094f60d7699b7db5d8385
            69ffd1f3e1c9e897cd9eb40063f9402e3e9937e936cf1fcd5eb743ff443c97ab2edcd7c8e0e6cf6cfd413b8ab19fffa7
            69a381d33081d0300c0603551d130101ff04023000300e0603551d0f0101ff040403020780301d0603551d0e04160414
            5f546cb6973d4981e80fcdc7463859f5879680e4301f0603551d2304183016801445aff715b0dd786741fee996ebc165
            47a3931b1e30100603551d250409300706056781050803305e0603551d110101ff04543052a450304e314c3014060567
            810502010c0b69643a30303030303030303014060567810502030c0b69643a3030303030303030301e06056781050202
            0c15576562417574686e207465737420766563746f7273300a06082a8648ce3d0403020348003045022063c9a2797b80
            66f1db34dd609f1ab6695607e7a98e9ff8090a68853c9a9fc949022100a55831a39f5b8a2aa9a68837829cabf43fea2a
            5cea4859ae851cac78e6ac3e97677075624172656158560023000b0004000000000010001000030010002041202698c9
            d9753fb4bb3f27cd09fe6b8afdb76438ee2ae54d7c9dade10d864b0020d8735115cdb330a63ea1d6e43d5000f4bd56f9
            9bce83ee1d73301fc270116d076863657274496e666f5869ff544347801700000020277d0e05579dd013215a62273f7f
            3a3e7e191ead2654a3036d75a5a3ee37a6b0000000000000000011111111222222223300000000000000000022000b9c
            42d8aad5939331b9af3711af179f17123178098c9a7d0ca89fcd1fc800f3c7000068617574684461746158a4bfabc374
            32958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b54d000000004b92a377fc5f6107c4c85c190adbfd
            990020ec27bec7521c894bbb821105ea3724c90e770cf1fa354157ef18d0f18f78bea9a5010203262001215820412026
            98c9d9753fb4bb3f27cd09fe6b8afdb76438ee2ae54d7c9dade10d864b225820d8735115cdb330a63ea1d6e43d5000f4
            bd56f99bce83ee1d73301fc270116d07
            """),
        authenticationChallenge: hex("00093b66c21d5b5e89f7a07082118907ea3e502d343b314b8c5a54d62db202fb"),
        authenticatorData: hex("bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b50d00000000"),
        authenticationClientDataJSON: hex("""
            7b2274797065223a22776562617574686e2e676574222c226368616c6c656e6765223a2241416b375a7349645731364a
            393642776768474a422d6f2d554330304f7a464c6a46705531693279417673222c226f726967696e223a226874747073
            3a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73657d
            """),
        signature: hex("""
            3045022060dc76b1607ec716c6e5eba8d056695ed6bc47b2e3d7a729c34e759e3ab66aa0022100d010a9e8fddcb64c43
            9dfdca628ddb33cf245d567d157d9f66f942601bed9b38
            """))

    /// §16 "Android Key Attestation with ES256 Credential", registration.
    static let androidKeyClientDataJSON = hex("""
        7b2274797065223a22776562617574686e2e637265617465222c226368616c6c656e6765223a2250654877747a5a647a
        4e345f384d76795869625f7037725f682d385162494438686c334541746d57414641222c226f726967696e223a226874
        7470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73652c226578747261446174
        61223a22636c69656e74446174614a534f4e206d617920626520657874656e6465642077697468206164646974696f6e
        616c206669656c647320696e20746865206675747572652c207375636820617320746869733a20565631635175523271
        4c4d5f616d50666f487a4c3067227d
        """)
    static let androidKeyAttestationObject = hex("""
        a363666d746b616e64726f69642d6b65796761747453746d74a363616c67266373696758483046022100e95512982aa3
        f216cff2e87c8ec57057b8529f674eaabeccaa27fd03d8779f19022100afb6bf459da4a826f00d01fc6b60712ff31dc4
        eb331619c8f874bb17e4314e94637835638159026e3082026a30820210a00302010202101ff91f76b63f44812f998b25
        0b0286bf300a06082a8648ce3d0403023062311e301c06035504030c15576562417574686e207465737420766563746f
        7273310c300a060355040a0c0357334331253023060355040b0c1c41757468656e74696361746f722041747465737461
        74696f6e204341310b30090603550406130241413020170d3234303130313030303030305a180f333032343031303130
        30303030305a305f311e301c06035504030c15576562417574686e207465737420766563746f7273310c300a06035504
        0a0c0357334331223020060355040b0c1941757468656e74696361746f72204174746573746174696f6e310b30090603
        550406130241413059301306072a8648ce3d020106082a8648ce3d0301070342000499169657036d089a2a9821a7d006
        3d341f1a4613389359636efab5f3cbf1accfdd91c55543176ea99b644406dd1dd63774b6af65ac759e06ff40b1c8ab02
        df6ba381a83081a5300c0603551d130101ff04023000300e0603551d0f0101ff040403020780301d0603551d0e041604
        141ac81e50641e8d1339ab9f7eb25f0cd5aac054b0301f0603551d2304183016801445aff715b0dd786741fee996ebc1
        6547a3931b1e3045060a2b06010401d679020111043730350202012c0a01000201000a01000420b435028d7b6a8f83bb
        461d41c19b053a9d3cdb30351a4f374cd4cde8dbefb606040030003000300a06082a8648ce3d04030203480030450220
        2d27f0ca39d2f519fc8f49c6d96dfc793059e211ff80516a50398cf1eac2a322022100d482a88c740f64cf6a98ccc6c8
        b9f5e1e533fa5e509f0a7b4c3a02f964a8eba768617574684461746158a4bfabc37432958b063360d3ad6461c9c4735a
        e7f8edd46592a5e0f01452b2e4b55d00000000ade9705e1ce7085b899a540d02199bf800200a4729519788b6ed8a2d77
        2b494e186244d8c798c052960dbc8c10c915176795a501020326200121582099169657036d089a2a9821a7d0063d341f
        1a4613389359636efab5f3cbf1accf225820dd91c55543176ea99b644406dd1dd63774b6af65ac759e06ff40b1c8ab02
        df6b
        """)

    static func configuration(_ anchors: [String: [Certificate]], attestation: AttestationConveyancePreference = .direct,
                              options: AttestationOptions = AttestationOptions()) -> WebAuthnConfiguration {
        var configuration = WebAuthnConfiguration(relyingPartyID: "example.org", relyingPartyName: "W3C test vectors",
                                                  allowedOrigins: ["https://example.org"], userVerification: .preferred,
                                                  residentKey: .preferred, attestation: attestation, attestationTrustAnchors: anchors)
        configuration.attestationOptions = options
        return configuration
    }

    static func verify(_ objectBytes: Data, clientDataJSON: Data, anchors: [String: [Certificate]],
                       attestation: AttestationConveyancePreference = .direct,
                       options: AttestationOptions = AttestationOptions()) throws -> AttestationTrust {
        let object = try AttestationObject(objectBytes)
        let credential = try #require(object.authenticatorData.attestedCredential)
        #expect(object.authenticatorData.rpIDHash == Data(SHA256.hash(data: Data("example.org".utf8))))
        let key = try COSEKey(cbor: credential.publicKey)
        return try AttestationVerifier(configuration: configuration(anchors, attestation: attestation, options: options),
                                       now: Date(timeIntervalSince1970: 1_750_000_000))
            .verify(object, credentialKey: try CredentialVerificationKey(.cose(key)),
                    clientDataHash: Data(SHA256.hash(data: clientDataJSON)))
    }

    /// The whole ceremony pair through `WebAuthnRelyingParty`, as W3CTestVectorTests does for the other formats.
    @Test func tpmES256RegistersAndAuthenticates() async throws {
        let v = Self.tpmES256
        let root = try Certificate(derRepresentation: W3CTestVectorTests.attestationRoot)
        let store = InMemoryChallengeStore()
        let rp = try WebAuthnRelyingParty(configuration: Self.configuration(["tpm": [root]]), challenges: store)
        try await W3CTestVectorTests.issue(v.registrationChallenge, .registration, in: store)
        let stored = try await rp.verifyRegistration(W3CTestVectorTests.registration(v))
        #expect(stored.id == v.credentialID && stored.attestationFormat == "tpm" && stored.attestationTrust == .trusted)
        try await W3CTestVectorTests.issue(v.authenticationChallenge, .authentication, in: store)
        let result = try await rp.verifyAuthentication(W3CTestVectorTests.assertion(v), allowedCredentialIDs: [v.credentialID]) {
            $0 == stored.id ? stored : nil
        }
        #expect(result.credential.id == v.credentialID)
    }

    @Test func tpmES256() throws {
        let v = Self.tpmES256
        let root = try Certificate(derRepresentation: W3CTestVectorTests.attestationRoot)
        #expect(try Self.verify(v.attestationObject, clientDataJSON: v.registrationClientDataJSON,
                                anchors: ["tpm": [root]]) == .trusted)
        #expect(try Self.verify(v.attestationObject, clientDataJSON: v.registrationClientDataJSON, anchors: [:]) == .uncertain)
        // Another client data hash breaks extraData.
        #expect(throws: WebAuthnError.attestationCheckFailed(.tpmExtraDataMismatch)) {
            try Self.verify(v.attestationObject, clientDataJSON: v.registrationClientDataJSON + Data(" ".utf8), anchors: [:])
        }
    }

    @Test func androidKeyES256() throws {
        // The published vector's KeyDescription has empty softwareEnforced and teeEnforced lists (no `origin`,
        // no `purpose`), which §8.4 requires: signature, key, challenge and allApplications pass, origin does not.
        let root = try Certificate(derRepresentation: W3CTestVectorTests.attestationRoot)
        #expect(throws: WebAuthnError.attestationCheckFailed(.androidKeyOriginInvalid)) {
            try Self.verify(Self.androidKeyAttestationObject, clientDataJSON: Self.androidKeyClientDataJSON,
                            anchors: ["android-key": [root]])
        }
        #expect(throws: WebAuthnError.attestationCheckFailed(.signatureInvalid(format: "android-key"))) {
            try Self.verify(Self.androidKeyAttestationObject, clientDataJSON: Self.androidKeyClientDataJSON + Data(" ".utf8),
                            anchors: [:])
        }
        // Accepting empty authorization lists (an explicit option), the vector verifies to the published root;
        // every other check still runs (changed client data still fails the signature).
        let relaxed = AttestationOptions(androidKeyAcceptsEmptyAuthorizationLists: true)
        #expect(try Self.verify(Self.androidKeyAttestationObject, clientDataJSON: Self.androidKeyClientDataJSON,
                                anchors: ["android-key": [root]], options: relaxed) == .trusted)
        #expect(throws: WebAuthnError.attestationCheckFailed(.signatureInvalid(format: "android-key"))) {
            try Self.verify(Self.androidKeyAttestationObject, clientDataJSON: Self.androidKeyClientDataJSON + Data(" ".utf8),
                            anchors: ["android-key": [root]], options: relaxed)
        }
        // With conveyance `none` the statement is not looked at.
        #expect(try Self.verify(Self.androidKeyAttestationObject, clientDataJSON: Self.androidKeyClientDataJSON,
                                anchors: [:], attestation: .none) == .none)
    }
}
