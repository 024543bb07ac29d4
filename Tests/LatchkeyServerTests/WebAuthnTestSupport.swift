import Foundation
import LatchkeySupport
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let value: Locked<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { value = Locked(start) }
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
    var function: @Sendable () -> Date { { [self] in self.now } }
}

/// A relying party for `localhost`, an authenticator, and an in-memory credential table.
final class PasskeyFixture: Sendable {
    static let origin = "http://localhost:8080"
    let clock = TestClock()
    let rp: WebAuthnRelyingParty
    let authenticator: SoftwareAuthenticator
    let credentials = Locked<[Data: StoredCredential]>([:])

    init(aaguid: Data = Data(count: 16), configure: (inout WebAuthnConfiguration) -> Void = { _ in }) throws {
        var config = WebAuthnConfiguration(relyingPartyID: "localhost", relyingPartyName: "Latchkey test",
                                           allowedOrigins: [Self.origin])
        config.attestation = .direct // statements are verified; the policy tests set `.none` themselves
        configure(&config)
        rp = try WebAuthnRelyingParty(configuration: config, challenges: InMemoryChallengeStore(now: clock.function),
                                  now: clock.function)
        authenticator = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), aaguid: aaguid, now: clock.function)
    }

    static let user = UserEntity(id: Data(repeating: 7, count: 16), name: "alice", displayName: "Alice")

    func registrationResponse() async throws -> RegistrationResponse {
        let options = try await rp.registrationOptions(user: Self.user)
        defer { clock.advance(1) } // the newest passkey is the one the authenticator offers
        return try authenticator.register(options, origin: Self.origin)
    }

    @discardableResult
    func register() async throws -> StoredCredential {
        let stored = try await rp.verifyRegistration(try await registrationResponse())
        credentials.withLock { $0[stored.id] = stored }
        return stored
    }

    func assertionResponse() async throws -> AuthenticationResponse {
        let options = try await rp.authenticationOptions()
        return try authenticator.authenticate(options, origin: Self.origin)
    }

    func verify(_ response: AuthenticationResponse) async throws -> WebAuthnRelyingParty.AuthenticationResult {
        let table = credentials.withLock { $0 }
        let result = try await rp.verifyAuthentication(response) { table[$0] }
        credentials.withLock { $0[result.credential.id] = result.credential }
        return result
    }
}

/// Makes X.509 certificates with the `openssl` command, for attestation tests.
struct TestPKI {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "3650",
                 "-subj", "/C=KR/O=Latchkey Test/CN=Latchkey Test Root",
                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func run(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    var rootDER: Data { get throws { try der(ofPEM: path("ca.pem")) } }

    func der(ofPEM pemPath: String) throws -> Data {
        let out = pemPath + ".der"
        try run(["x509", "-in", pemPath, "-outform", "DER", "-out", out])
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// A leaf certified by the test root for `keyPEM` (or a new P-256 key), with extra `-extfile` lines.
    func leaf(name: String, subject: String, keyPEM: String? = nil, extensions: [String]) throws -> (der: Data, key: P256.Signing.PrivateKey) {
        let key = try keyPEM.map { try P256.Signing.PrivateKey(pemRepresentation: $0) } ?? P256.Signing.PrivateKey()
        try key.pemRepresentation.write(toFile: path("\(name).key"), atomically: true, encoding: .utf8)
        try run(["req", "-new", "-key", path("\(name).key"), "-subj", subject, "-out", path("\(name).csr")])
        try (extensions.joined(separator: "\n") + "\n").write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                 "-CAcreateserial", "-days", "365", "-extfile", path("\(name).ext"), "-out", path("\(name).pem")])
        return (try der(ofPEM: path("\(name).pem")), key)
    }

    /// A leaf certified by the test root for a new RSA-2048 key (kept as `<name>.key` for ``signSHA1(_:with:)``).
    func rsaLeaf(name: String, subject: String, extensions: [String]) throws -> Data {
        try run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", path("\(name).key")])
        try run(["req", "-new", "-key", path("\(name).key"), "-subj", subject, "-out", path("\(name).csr")])
        try (extensions.joined(separator: "\n") + "\n").write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                 "-CAcreateserial", "-days", "365", "-extfile", path("\(name).ext"), "-out", path("\(name).pem")])
        return try der(ofPEM: path("\(name).pem"))
    }

    /// An RSASSA-PKCS1-v1_5 SHA-1 signature of `data` by the key of `rsaLeaf(name:…)`, made by `openssl dgst`.
    func signSHA1(_ data: Data, with name: String) throws -> Data {
        let input = path("\(name).tbs"), output = path("\(name).sig")
        try data.write(to: URL(fileURLWithPath: input))
        try run(["dgst", "-sha1", "-sign", path("\(name).key"), "-out", output, input])
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}

extension Data {
    mutating func flipBit(at index: Int) { self[index] ^= 0x01 }
}
