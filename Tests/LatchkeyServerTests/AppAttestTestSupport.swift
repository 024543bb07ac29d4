import Foundation
import Testing
import LatchkeyCrypto
import LatchkeySupport
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// An attestation authority with Apple's layout (root → intermediate → credential certificate carrying the nonce
/// extension), made with the `openssl` command, and a device whose keys it attests: what `DCAppAttestService` and
/// Apple's servers do, for tests of the server alone. (The Linux DeviceCheck module is the real thing end to end.)
final class AppAttestTestDevice: Sendable {
    let pki: TestPKI
    let appID: String
    let environment: AppAttestEnvironment
    private let keys = Locked<[Data: (key: P256.Signing.PrivateKey, counter: UInt32)]>([:])

    init(appID: String = AppAttestTestDevice.appID, environment: AppAttestEnvironment = .development) throws {
        pki = try TestPKI()
        self.appID = appID
        self.environment = environment
        try pki.run(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", pki.path("int.key"), "-subj", "/O=Latchkey Test/CN=Latchkey Test App Attestation CA",
                     "-out", pki.path("int.csr")])
        try "basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n"
            .write(toFile: pki.path("int.ext"), atomically: true, encoding: .utf8)
        try pki.run(["x509", "-req", "-in", pki.path("int.csr"), "-CA", pki.path("ca.pem"), "-CAkey", pki.path("ca.key"),
                     "-CAcreateserial", "-days", "30", "-extfile", pki.path("int.ext"), "-out", pki.path("int.pem")])
    }

    static let appID = "A1B2C3D4E5.org.latchkey.attest"

    /// The authority's root, to configure the server with.
    var root: Certificate { get throws { try Certificate(derRepresentation: try pki.rootDER) } }
    var rootPEM: String { get throws { try String(contentsOfFile: pki.path("ca.pem"), encoding: .utf8) } }

    /// `generateKey()`: a new key and its identifier.
    func generateKey() -> Data {
        let key = P256.Signing.PrivateKey()
        let keyID = Data(SHA256.hash(data: key.publicKey.x963Representation))
        keys.withLock { $0[keyID] = (key, 0) }
        return keyID
    }

    /// `attestKey(_:clientDataHash:)`, with the authenticator data changed by `tamper` before it is certified.
    func attestKey(_ keyID: Data, clientDataHash: Data, counter: UInt32 = 0, aaguid: Data? = nil) throws -> Data {
        let key = try #require(keys.withLock { $0[keyID]?.key })
        let point = key.publicKey.x963Representation
        let cose = COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33], y: point[33..<65]).encoded
        var authData = Data(SHA256.hash(data: Data(appID.utf8)))
        authData.append(0x40)
        authData += Self.bigEndian(counter)
        authData += aaguid ?? environment.aaguid
        authData += Data([0x00, 0x20]) + keyID + cose
        let nonce = Data(AppAttestAssertion.nonce(authenticatorData: authData, clientDataHash: clientDataHash))
        let name = "cred-\(keyID.prefix(6).hexString)-\(UUID().uuidString.prefix(8))"
        try key.pemRepresentation.write(toFile: pki.path("\(name).key"), atomically: true, encoding: .utf8)
        try pki.run(["req", "-new", "-key", pki.path("\(name).key"), "-subj", "/O=Apple Inc./CN=\(keyID.hexString)",
                     "-out", pki.path("\(name).csr")])
        let ext = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
            + "1.2.840.113635.100.8.2=DER:30:24:a1:22:04:20:" + nonce.map { String(format: "%02x", $0) }.joined(separator: ":") + "\n"
        try ext.write(toFile: pki.path("\(name).ext"), atomically: true, encoding: .utf8)
        try pki.run(["x509", "-req", "-in", pki.path("\(name).csr"), "-CA", pki.path("int.pem"), "-CAkey", pki.path("int.key"),
                     "-CAcreateserial", "-days", "3", "-extfile", pki.path("\(name).ext"), "-out", pki.path("\(name).pem")])
        let leaf = try pki.der(ofPEM: pki.path("\(name).pem"))
        let intermediate = try pki.der(ofPEM: pki.path("int.pem"))
        return CBOR.map(["fmt": "apple-appattest",
                         "attStmt": .map(["x5c": .array([.byteString(leaf), .byteString(intermediate)]),
                                          "receipt": .byteString(Data("test receipt".utf8))]),
                         "authData": .byteString(authData)]).encoded
    }

    /// `generateAssertion(_:clientDataHash:)`: the key's counter goes up by one (or is `counter`).
    func generateAssertion(_ keyID: Data, clientDataHash: Data, counter: UInt32? = nil) throws -> Data {
        let (key, next) = try #require(keys.withLock { entries -> (P256.Signing.PrivateKey, UInt32)? in
            guard let entry = entries[keyID] else { return nil }
            let next = counter ?? entry.counter + 1
            entries[keyID] = (entry.key, max(entry.counter, next))
            return (entry.key, next)
        })
        var authData = Data(SHA256.hash(data: Data(appID.utf8)))
        authData.append(0x40)
        authData += Self.bigEndian(next)
        let nonce = Data(AppAttestAssertion.nonce(authenticatorData: authData, clientDataHash: clientDataHash))
        let signature = try key.signature(for: nonce).derRepresentation
        return try AppAttestAssertion(signature: signature, authenticatorData: authData).encoded
    }

    /// The `X-App-Attest-Assertion` value for a request.
    func assertionHeader(_ keyID: Data, challenge: Data, method: String, path: String, body: Data,
                         counter: UInt32? = nil) throws -> String {
        let hash = AppAttestClientData.requestHash(method: method, path: path, body: body, challenge: challenge)
        let assertion = try generateAssertion(keyID, clientDataHash: hash, counter: counter)
        return AppAttestRequestAssertion(keyID: keyID, challenge: challenge, assertion: assertion).headerValue
    }

    static func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }

    deinit { pki.remove() }
}

/// The auth service with App Attest on one router (sign-up and refresh guarded), over a test device's authority.
struct AppAttestFixture: Sendable {
    let base: ServiceFixture
    let appAttest: AppAttestService
    let router: Router
    let device: AppAttestTestDevice

    static func make(_ engine: StorageEngine = .sqlite, signUp: AppAttestPolicy = .require,
                     tokenRefresh: AppAttestPolicy = .require) async throws -> AppAttestFixture? {
        guard let test = try makeTestDatabase(engine) else { return nil }
        // The authority's certificates are valid from the real time they are made at, for days: the clock reads a day
        // later, after every certificate a test makes.
        let clock = ManualClock(Date().addingTimeInterval(86_400))
        let service = try AuthService(database: test.database, clock: clock,
                                      passwordHasher: Argon2PasswordHasher(parameters: testArgon2))
        let base = ServiceFixture(test: test, clock: clock, service: service, router: Router(service.routes()))
        let device = try AppAttestTestDevice()
        let configuration = AppAttestConfiguration(appIDs: [try AppleAppID(device.appID)], environment: .development,
                                                   trustAnchors: AppAttestRoots.apple + [try device.root],
                                                   policies: [.signUp: signUp, .tokenRefresh: tokenRefresh])
        let appAttest = AppAttestService(auth: service, configuration: configuration)
        return AppAttestFixture(base: base, appAttest: appAttest,
                                router: Router(appAttest.guarding(service.routes()) + appAttest.routes()), device: device)
    }

    func request(_ method: String, _ path: String, body: Data = Data(), contentType: String = "application/json",
                 headers extra: [String: String] = [:]) async -> HTTPResponse {
        var headers = extra
        if !body.isEmpty { headers["content-type"] = contentType }
        return await router.handle(HTTPRequest(method: method, path: path, headers: headers, body: body,
                                               remoteAddress: "127.0.0.1"))
    }

    /// A fresh one-time challenge from the endpoint.
    func challenge() async throws -> Data {
        let response = await request("POST", "/v1/app-attest/challenge")
        try #require(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let body = try JSONDecoder().decode([String: AnyCodableValue].self, from: response.body)
        guard case .string(let text)? = body["challenge"] else { throw CocoaError(.coderValueNotFound) }
        return try #require(Data(base64URLEncoded: text))
    }

    /// Posts an attestation.
    func attest(keyID: Data, challenge: Data, attestation: Data) async -> HTTPResponse {
        let body = #"{"key_id":"\#(keyID.base64URLEncodedString())","challenge":"\#(challenge.base64URLEncodedString())","#
            + #""attestation":"\#(attestation.base64URLEncodedString())"}"#
        return await request("POST", "/v1/app-attest/attest", body: Data(body.utf8))
    }

    /// A new key of the device, attested through the endpoints.
    func attestedKey() async throws -> Data {
        let keyID = device.generateKey()
        let challenge = try await challenge()
        let attestation = try device.attestKey(keyID, clientDataHash: AppAttestClientData.attestationHash(challenge: challenge))
        let response = await attest(keyID: keyID, challenge: challenge, attestation: attestation)
        try #require(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        return keyID
    }

    /// A request with an assertion over it (a fresh challenge unless one is given).
    func assertedRequest(_ method: String, _ path: String, body: Data, contentType: String = "application/json",
                         keyID: Data, challenge given: Data? = nil, counter: UInt32? = nil) async throws
        -> (response: HTTPResponse, header: String) {
        let challenge: Data
        if let given { challenge = given } else { challenge = try await self.challenge() }
        let header = try device.assertionHeader(keyID, challenge: challenge, method: method, path: path, body: body,
                                                counter: counter)
        let response = await request(method, path, body: body, contentType: contentType,
                                     headers: [AppAttestRequestAssertion.headerName: header])
        return (response, header)
    }
}

/// A JSON value of a flat object, for reading answers.
enum AnyCodableValue: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null } else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else { self = .number(try container.decode(Double.self)) }
    }
}

extension HTTPResponse {
    /// The `step` member of an App Attest error answer.
    var appAttestStep: String? {
        guard let body = try? JSONDecoder().decode([String: AnyCodableValue].self, from: body),
              case .string(let step)? = body["step"] else { return nil }
        return step
    }
}
