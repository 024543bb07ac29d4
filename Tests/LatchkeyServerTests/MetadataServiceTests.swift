import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// A test FIDO root, an intermediate and two BLOB signers (RSA under the intermediate, P-256 under the root),
/// made with `openssl`, and MDS3 BLOBs signed by them.
struct MetadataTestPKI {
    let pki: TestPKI
    let root: Certificate
    let intermediate: Certificate
    let rsaLeaf: Certificate
    let rsaKey: RSA.Signing.PrivateKey
    let ecLeaf: Certificate
    let ecKey: P256.Signing.PrivateKey

    init() throws {
        pki = try TestPKI()
        root = try Certificate(derRepresentation: try pki.rootDER)
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n"
            .write(toFile: pki.path("ca.ext"), atomically: true, encoding: .utf8)
        try "basicConstraints=critical,CA:FALSE\n".write(toFile: pki.path("leaf.ext"), atomically: true, encoding: .utf8)
        try pki.run(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                     pki.path("int.key"), "-subj", "/C=KR/O=Latchkey Test/CN=Test MDS CA", "-out", pki.path("int.csr")])
        try pki.run(["x509", "-req", "-in", pki.path("int.csr"), "-CA", pki.path("ca.pem"), "-CAkey", pki.path("ca.key"),
                     "-CAcreateserial", "-days", "365", "-extfile", pki.path("ca.ext"), "-out", pki.path("int.pem")])
        intermediate = try Certificate(derRepresentation: try pki.der(ofPEM: pki.path("int.pem")))
        try pki.run(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", pki.path("mds.key"),
                     "-subj", "/C=KR/O=Latchkey Test/CN=mds.test", "-out", pki.path("mds.csr")])
        try pki.run(["x509", "-req", "-in", pki.path("mds.csr"), "-CA", pki.path("int.pem"), "-CAkey", pki.path("int.key"),
                     "-CAcreateserial", "-days", "365", "-extfile", pki.path("leaf.ext"), "-out", pki.path("mds.pem")])
        rsaLeaf = try Certificate(derRepresentation: try pki.der(ofPEM: pki.path("mds.pem")))
        rsaKey = try RSA.Signing.PrivateKey(pemRepresentation: try String(contentsOfFile: pki.path("mds.key"), encoding: .utf8))
        let ec = try pki.leaf(name: "mdses", subject: "/C=KR/O=Latchkey Test/CN=mds-es.test",
                              extensions: ["basicConstraints=critical,CA:FALSE"])
        ecLeaf = try Certificate(derRepresentation: ec.der)
        ecKey = ec.key
    }

    func remove() { pki.remove() }

    static let yubi = "cb69481e-8ff7-4039-93ec-0a2729a154a8"
    static let revoked = "11111111-2222-4333-8444-555555555555"
    static let fixed = "99999999-8888-4777-8666-555555555555"

    /// The payload: three FIDO2 entries (one certified with a root, one revoked, one whose bypass was fixed later).
    static func payload(nextUpdate: String = "2099-01-01", attestationRoot: Certificate? = nil) -> Data {
        let entries: [[String: Any]] = [
            ["aaguid": yubi,
             "metadataStatement": ["description": "Test Security Key 5", "icon": "data:image/png;base64,iVBORw0KGgo=",
                                   "aaguid": yubi, "protocolFamily": "fido2", "schema": 3,
                                   "attestationTypes": ["basic_full"],
                                   "attestationRootCertificates": attestationRoot.map { [$0.derRepresentation.base64EncodedString()] } ?? []],
             "statusReports": [["status": "FIDO_CERTIFIED_L1", "effectiveDate": "2020-05-12"]],
             "timeOfLastStatusChange": "2020-05-12"],
            ["aaguid": revoked,
             "metadataStatement": ["description": "Broken Key", "attestationTypes": ["basic_full"]],
             "statusReports": [["status": "REVOKED", "effectiveDate": "2023-02-01"],
                               ["status": "FIDO_CERTIFIED", "effectiveDate": "2019-01-01"]],
             "timeOfLastStatusChange": "2023-02-01"],
            ["aaguid": fixed,
             "metadataStatement": ["description": "Fixed Key"],
             "statusReports": [["status": "USER_VERIFICATION_BYPASS", "effectiveDate": "2021-03-01"],
                               ["status": "FIDO_CERTIFIED", "effectiveDate": "2022-03-01"]],
             "timeOfLastStatusChange": "2022-03-01"],
            ["aaid": "4e4e#4005", "statusReports": [["status": "FIDO_CERTIFIED"]], "timeOfLastStatusChange": "2019-01-01"],
        ]
        let object: [String: Any] = ["legalHeader": "Test metadata, not FIDO's.", "no": 42, "nextUpdate": nextUpdate,
                                     "entries": entries]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// A BLOB signed RS256 by the RSA leaf (x5c: leaf, intermediate) or ES256 by the P-256 leaf (x5c: leaf).
    func blob(_ payload: Data, rsa: Bool = true) throws -> String {
        let chain = rsa ? [rsaLeaf, intermediate] : [ecLeaf]
        let header = JWSHeader(alg: rsa ? .RS256 : .ES256, typ: "JWT",
                               additional: ["x5c": .array(chain.map { .string($0.derRepresentation.base64EncodedString()) })])
        return try JWS.sign(payload: payload, header: header, key: rsa ? .rsa(rsaKey) : .p256(ecKey))
    }

    /// The metadata service of a valid RS256 BLOB.
    func service(attestationRoot: Certificate? = nil) throws -> MetadataService {
        MetadataService(blob: try MetadataBLOB(jws: try blob(Self.payload(attestationRoot: attestationRoot)), roots: [root]))
    }
}

func aaguidBytes(_ text: String) -> Data {
    guard let uuid = UUID(uuidString: text) else { return Data(count: 16) }
    return withUnsafeBytes(of: uuid.uuid) { Data($0) }
}

@Suite("FIDO metadata (MDS3)", .serialized, .offCooperativePool)
struct MetadataServiceTests {
    @Test func verifiesAnRS256BLOBThroughAnIntermediateAndLooksUpNames() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let blob = try MetadataBLOB(jws: try t.blob(MetadataTestPKI.payload()), roots: [t.root])
        #expect(blob.number == 42)
        #expect(blob.legalHeader == "Test metadata, not FIDO's.")
        #expect(blob.nextUpdate == MetadataDate.parse("2099-01-01"))
        #expect(blob.entries.count == 4)
        #expect(blob.signers == [t.rsaLeaf, t.intermediate])
        #expect(!blob.isStale())

        let metadata = MetadataService(blob: blob)
        let yubi = aaguidBytes(MetadataTestPKI.yubi)
        #expect(metadata.authenticatorName(aaguid: yubi) == "Test Security Key 5")
        #expect(metadata.icon(aaguid: yubi) == "data:image/png;base64,iVBORw0KGgo=")
        #expect(metadata.entry(aaguid: yubi)?.latestStatus == AuthenticatorStatus(rawValue: "FIDO_CERTIFIED_L1"))
        #expect(metadata.entry(aaguid: yubi)?.metadataStatement?.attestationTypes == ["basic_full"])
        #expect(metadata.authenticatorName(aaguid: aaguidBytes("00000000-0000-4000-8000-000000000001")) == nil)
        #expect(metadata.authenticatorName(aaguid: Data(count: 16)) == nil)
        #expect(MetadataService.text(yubi) == MetadataTestPKI.yubi)
    }

    @Test func verifiesAnES256BLOBSignedUnderTheRoot() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let blob = try MetadataBLOB(jws: try t.blob(MetadataTestPKI.payload(), rsa: false), roots: [t.root])
        #expect(blob.signers == [t.ecLeaf])
        #expect(blob.entries.count == 4)
    }

    @Test func aBLOBChainingToAnotherRootIsRefused() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let other = try TestPKI()
        defer { other.remove() }
        let otherRoot = try Certificate(derRepresentation: try other.rootDER)
        let jws = try t.blob(MetadataTestPKI.payload())
        #expect { try MetadataBLOB(jws: jws, roots: [otherRoot]) } throws: { error in
            if case MetadataError.untrustedSigner = error { true } else { false }
        }
        // The intermediate alone is no root: the chain must reach the caller's certificate.
        #expect(throws: MetadataError.untrustedSigner("no root certificate given")) { try MetadataBLOB(jws: jws, roots: []) }
    }

    @Test func aTamperedPayloadOrSignatureIsRefused() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let parts = try t.blob(MetadataTestPKI.payload()).split(separator: ".").map(String.init)
        // Another payload (REVOKED removed) under the original signature.
        let forged = MetadataTestPKI.payload(nextUpdate: "2099-01-02").base64URLEncodedString()
        #expect(throws: MetadataError.signatureInvalid) {
            try MetadataBLOB(jws: [parts[0], forged, parts[2]].joined(separator: "."), roots: [t.root])
        }
        var signature = try #require(Data(base64URLEncoded: parts[2]))
        signature.flipBit(at: 10)
        #expect(throws: MetadataError.signatureInvalid) {
            try MetadataBLOB(jws: [parts[0], parts[1], signature.base64URLEncodedString()].joined(separator: "."),
                             roots: [t.root])
        }
    }

    @Test func malformedBLOBsAreRefusedWithTheirReason() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        #expect { try MetadataBLOB(jws: "not a jws", roots: [t.root]) } throws: { error in
            if case MetadataError.malformedBLOB = error { true } else { false }
        }
        // No x5c in the header.
        let bare = try JWS.sign(payload: MetadataTestPKI.payload(), header: JWSHeader(alg: .RS256), key: .rsa(t.rsaKey))
        #expect(throws: MetadataError.malformedBLOB("the header has no x5c certificate chain")) {
            try MetadataBLOB(jws: bare, roots: [t.root])
        }
        // ES256 header over the RSA leaf's chain: the key does not suit the algorithm.
        let mixed = JWSHeader(alg: .ES256, additional: ["x5c": .array([.string(t.rsaLeaf.derRepresentation.base64EncodedString()),
                                                                       .string(t.intermediate.derRepresentation.base64EncodedString())])])
        let confused = try JWS.sign(payload: MetadataTestPKI.payload(), header: mixed, key: .p256(t.ecKey))
        #expect(throws: MetadataError.malformedBLOB("the x5c leaf's key does not suit ES256")) {
            try MetadataBLOB(jws: confused, roots: [t.root])
        }
        // A signed payload that is not MDS3 JSON.
        #expect { try MetadataBLOB(jws: try t.blob(Data(#"{"no": 1, "entries": []}"#.utf8)), roots: [t.root]) } throws: { error in
            error as? MetadataError == .malformedPayload("nextUpdate missing at ")
        }
        #expect(throws: MetadataError.malformedPayload("nextUpdate 2099-13-01 is not a date")) {
            try MetadataBLOB(jws: try t.blob(MetadataTestPKI.payload(nextUpdate: "2099-13-01")), roots: [t.root])
        }
    }

    /// Policy: a BLOB past `nextUpdate` is used with a warning by default (`isStale`), refused under `.refuse`.
    @Test func aStaleBLOBWarnsByDefaultAndIsRefusedOnRequest() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let jws = try t.blob(MetadataTestPKI.payload(nextUpdate: "2020-01-01"))
        let blob = try MetadataBLOB(jws: jws, roots: [t.root])
        #expect(blob.isStale())
        #expect(!blob.isStale(at: try #require(MetadataDate.parse("2019-12-31"))))
        #expect(throws: MetadataError.stale(nextUpdate: try #require(MetadataDate.parse("2020-01-01")))) {
            try MetadataBLOB(jws: jws, roots: [t.root], stalePolicy: .refuse)
        }
    }

    @Test func theLatestStatusReportDecides() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let metadata = try t.service()
        #expect(metadata.entry(aaguid: aaguidBytes(MetadataTestPKI.revoked))?.latestStatus == .revoked)
        #expect(throws: MetadataError.authenticatorRefused(aaguid: MetadataTestPKI.revoked, status: .revoked)) {
            try metadata.checkAuthenticatorStatus(aaguid: aaguidBytes(MetadataTestPKI.revoked))
        }
        // A bypass fixed by a later certification passes; so do listed-good and unlisted authenticators.
        #expect(metadata.entry(aaguid: aaguidBytes(MetadataTestPKI.fixed))?.latestStatus == .fidoCertified)
        try metadata.checkAuthenticatorStatus(aaguid: aaguidBytes(MetadataTestPKI.fixed))
        try metadata.checkAuthenticatorStatus(aaguid: aaguidBytes(MetadataTestPKI.yubi))
        try metadata.checkAuthenticatorStatus(aaguid: aaguidBytes("00000000-0000-4000-8000-000000000001"))
        for status in AuthenticatorStatus.refused { #expect(status.isRefused) }
        #expect(!AuthenticatorStatus.updateAvailable.isRefused)
        // Undated reports count as oldest; equal dates go to the later report.
        let entry = MetadataBLOBEntry(aaguid: nil, metadataStatement: nil, statusReports: [
            MetadataStatusReport(status: .fidoCertified, effectiveDate: MetadataDate.parse("2022-01-01")),
            MetadataStatusReport(status: .revoked),
            MetadataStatusReport(status: .userKeyPhysicalCompromise, effectiveDate: MetadataDate.parse("2022-01-01")),
        ])
        #expect(entry.latestStatus == .userKeyPhysicalCompromise)
    }

    @Test func rootFilesArePEMOrDER() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        #expect(try MetadataBLOB.rootCertificates(contentsOf: t.pki.path("ca.pem")) == [t.root])
        #expect(try MetadataBLOB.rootCertificates(contentsOf: t.pki.path("ca.pem.der")) == [t.root])
        let both = try String(contentsOfFile: t.pki.path("ca.pem"), encoding: .utf8)
            + (try String(contentsOfFile: t.pki.path("int.pem"), encoding: .utf8))
        #expect(try MetadataBLOB.rootCertificates(Data(both.utf8)) == [t.root, t.intermediate])
        #expect(throws: MetadataError.unreadableRoot("neither PEM nor DER")) {
            try MetadataBLOB.rootCertificates(Data("junk".utf8))
        }
        try t.blob(MetadataTestPKI.payload()).write(toFile: t.pki.path("blob.jwt"), atomically: true, encoding: .utf8)
        let blob = try MetadataBLOB(contentsOf: t.pki.path("blob.jwt"), rootCertificate: t.pki.path("ca.pem"))
        #expect(blob.number == 42)
    }

    @Test func theRelyingPartyRefusesRevokedAuthenticatorsAndUsesMetadataRoots() async throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        // The authenticator's attestation root is published in its metadata statement, not configured.
        let attestation = try TestPKI()
        defer { attestation.remove() }
        let attestationRoot = try Certificate(derRepresentation: try attestation.rootDER)
        let metadata = try t.service(attestationRoot: attestationRoot)

        let revoked = try PasskeyFixture(aaguid: aaguidBytes(MetadataTestPKI.revoked)) { $0.attestationRootProvider = metadata }
        await #expect(throws: MetadataError.authenticatorRefused(aaguid: MetadataTestPKI.revoked, status: .revoked)) {
            try await revoked.register()
        }
        let good = try PasskeyFixture(aaguid: aaguidBytes(MetadataTestPKI.yubi)) { $0.attestationRootProvider = metadata }
        #expect(try await good.register().attestationTrust == .none)

        // A packed full attestation chaining to the metadata's root for that AAGUID is trusted.
        let yubi = aaguidBytes(MetadataTestPKI.yubi)
        let leaf = try attestation.leaf(name: "packed", subject: "/C=KR/O=Latchkey Test/OU=Authenticator Attestation/CN=Key",
                                        extensions: ["basicConstraints=critical,CA:FALSE",
                                                     "1.3.6.1.4.1.45724.1.1.4=DER:0410" + yubi.map { String(format: "%02x", $0) }.joined()])
        func packed(_ f: PasskeyFixture) async throws -> RegistrationResponse {
            var response = try await f.registrationResponse()
            let original = try AttestationObject(response.response.attestationObject.data)
            let authData = original.authenticatorData.raw
            let sig = try leaf.key.signature(for: authData + SHA256.hash(data: response.response.clientDataJSON.data))
            response.response.attestationObject = Base64URLBytes(CBOR.map([
                "fmt": "packed", "attStmt": .map(["alg": -7, "sig": .byteString(sig.derRepresentation), "x5c": [.byteString(leaf.der)]]),
                "authData": .byteString(authData)]).encoded)
            return response
        }
        let trusted = try await good.rp.verifyRegistration(try await packed(good))
        #expect(trusted.attestationTrust == .trusted)
        // Without the metadata the same chain is only uncertain.
        let plain = try PasskeyFixture(aaguid: yubi)
        #expect(try await plain.rp.verifyRegistration(try await packed(plain)).attestationTrust == .uncertain)
    }

    @Test(arguments: StorageEngine.allCases)
    func theServerNamesAuthenticatorsAndRefusesRevokedOnes(_ engine: StorageEngine) async throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        guard let f = try await PasskeyEndpointFixture.make(engine, metadata: try t.service()) else { return }
        defer { f.base.test.cleanup() }
        let revoked = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), aaguid: aaguidBytes(MetadataTestPKI.revoked))
        let refused = try await f.register(revoked, username: "mallory")
        #expect(refused.status == 403, "\(refused.bodyText)")
        #expect(refused.object["error"] as? String == "authenticator_refused")

        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), aaguid: aaguidBytes(MetadataTestPKI.yubi))
        let created = try await f.register(key, username: "alice")
        #expect(created.status == 201, "\(created.bodyText)")
        let access = try #require(created.object["access_token"] as? String)
        let list = await f.request("GET", "/v1/passkeys", bearer: access)
        let first = try #require((list.object["passkeys"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == "Test Security Key 5")
        #expect(first["authenticator"] as? String == "Test Security Key 5")
        #expect(first["aaguid"] as? String == MetadataTestPKI.yubi)
        #expect(first["authenticator_icon"] as? String == "data:image/png;base64,iVBORw0KGgo=")
    }

    @Test func serveLoadsTheMetadataFiles() async throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let blobPath = t.pki.path("blob.jwt"), stalePath = t.pki.path("stale.jwt")
        try t.blob(MetadataTestPKI.payload()).write(toFile: blobPath, atomically: true, encoding: .utf8)
        try t.blob(MetadataTestPKI.payload(nextUpdate: "2020-01-01")).write(toFile: stalePath, atomically: true, encoding: .utf8)
        let database = ["--database", "sqlite:" + t.pki.path("db.sqlite")]

        // A request before SIGTERM: `serve` prints "listening on" a moment before its signal handlers are in place.
        func served(_ server: ServeProcess) async throws -> Int {
            try await rawRequest(port: server.port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").status
        }
        let server = try await ServeProcess(["--metadata", blobPath, "--metadata-root", t.pki.path("ca.pem"),
                                             "--attestation", "direct"] + database)
        #expect(try await served(server) == 200)
        #expect(try await server.stop() == 0)
        let log = String(decoding: server.errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("FIDO metadata BLOB no 42, 4 entries"), "\(log)")
        #expect(!log.contains("warning"))

        let stale = try await ServeProcess(["--metadata", stalePath, "--metadata-root", t.pki.path("ca.pem.der")] + database)
        #expect(try await served(stale) == 200)
        #expect(try await stale.stop() == 0)
        let staleLog = String(decoding: stale.errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(staleLog.contains("warning: the metadata BLOB (no 42) was due for an update on 2020-01-01"), "\(staleLog)")

        #expect(try await ServeProcess.run(["serve", "--port", "0", "--metadata", stalePath, "--metadata-root",
                                            t.pki.path("ca.pem"), "--metadata-stale", "refuse"] + database).status == 1)
        #expect(try await ServeProcess.run(["serve", "--port", "0", "--metadata", blobPath, "--metadata-root",
                                            t.pki.path("int.pem")] + database).status == 1)
        #expect(try await ServeProcess.run(["serve", "--metadata", blobPath]).status == 64)
    }
}
