#if os(Linux)
import CryptoKit
import Foundation
import Glibc
import LatchkeyCrypto
import LatchkeyOpenSSL
import LatchkeySupport

/// The development App Attest authority this package runs in place of Apple's attestation service: a root CA and an
/// intermediate CA whose private keys are `SecureEnclave` keys — made and used inside the TPM, never exported — and
/// which issues the credential certificate of every attestation a Linux `DCAppAttestService` makes. A server that
/// trusts this root (as its App Attest root, with the `development` environment) verifies Linux devices exactly as it
/// verifies iPhones against Apple's App Attestation Root CA.
///
/// Where it lives: a directory (0700) of the user — by default `$XDG_DATA_HOME/latchkey/app-attest-authority` — holding
/// `root.pem` and `intermediate.pem` (certificates, public) and `root.key` and `intermediate.key` (0600: the keys' TPM
/// blobs, which open only in the TPM that made them). Whoever can use that TPM as this user can mint attestations
/// with it, which is why it is a development authority: trust its root only where development App Attest is trusted.
/// It is made at first use (or by `latchkey app-attest authority`), under a lock shared by the user's processes.
public struct LatchkeyAppAttestAuthority: Sendable, Hashable {
    /// The authority's directory.
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The authority of the current `LatchkeyDeviceCheckConfiguration`.
    public static var current: LatchkeyAppAttestAuthority {
        LatchkeyAppAttestAuthority(directory: LatchkeyDeviceCheckConfiguration.current.resolvedAuthorityDirectory())
    }

    /// The subjects of its certificates.
    static let rootName = "Latchkey App Attestation Development Root CA"
    static let intermediateName = "Latchkey App Attestation Development CA 1"
    static let organization = "Latchkey (development)"
    /// The OID of the credential certificate's nonce extension (Apple's).
    static let nonceOID = "1.2.840.113635.100.8.2"

    /// The root certificate (DER), making the authority first if there is none.
    public func rootCertificate() throws -> Data { try prepared().root }

    /// The root certificate as PEM, for a server's `--app-attest-root`.
    public func rootCertificatePEM() throws -> String { PEM.encode(label: "CERTIFICATE", der: try rootCertificate()) }

    /// Whether the authority exists (nothing is made).
    public var exists: Bool { FileManager.default.fileExists(atPath: file("intermediate.key").path) }

    // MARK: - Issuing

    /// The credential certificate of an App Attest key: subject CN = the key ID in hex, the nonce in extension
    /// 1.2.840.113635.100.8.2 (`SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`), signed by the intermediate. Returns it
    /// with the intermediate's certificate: the attestation's `x5c`.
    func credentialCertificate(publicKey: P256.Signing.PublicKey, keyID: Data, nonce: Data, now: Date = Date()) throws -> [Data] {
        let material = try prepared()
        let signer = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: material.intermediateKey)
        let nonceExtension = DERWriter.sequence(DERWriter.explicit(1, DERWriter.octetString(nonce)))
        let builder = X509CertificateBuilder(
            subject: [("CN", keyID.hexString), ("OU", "App Attest"), ("O", Self.organization)],
            issuer: try X509Certificate(derRepresentation: material.intermediate),
            serialNumber: Self.serialNumber(), notBefore: now.addingTimeInterval(-3600),
            notAfter: now.addingTimeInterval(30 * 86400), subjectPublicKeyInfo: publicKey.derRepresentation,
            isCertificateAuthority: false,
            extraExtensions: [.init(oid: Self.nonceOID, critical: false, value: nonceExtension)])
        let leaf = try builder.certificate { tbs in try signer.signature(for: tbs).derRepresentation }
        return [leaf, material.intermediate]
    }

    // MARK: - Making the authority

    private struct Material {
        let root: Data
        let intermediate: Data
        let intermediateKey: Data
    }

    /// The authority's certificates and the intermediate's key, made first when missing.
    private func prepared() throws -> Material {
        if let material = read() { return material }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return try withLock {
            if let material = read() { return material }  // another process made it meanwhile
            return try make()
        }
    }

    private func make(now: Date = Date()) throws -> Material {
        let rootKey = try SecureEnclave.P256.Signing.PrivateKey()
        let intermediateKey = try SecureEnclave.P256.Signing.PrivateKey()
        let rootBuilder = X509CertificateBuilder(
            subject: [("CN", Self.rootName), ("O", Self.organization)], issuer: nil, serialNumber: Self.serialNumber(),
            notBefore: now.addingTimeInterval(-86400), notAfter: now.addingTimeInterval(20 * 365 * 86400),
            subjectPublicKeyInfo: rootKey.publicKey.derRepresentation, isCertificateAuthority: true)
        let root = try rootBuilder.certificate { tbs in try rootKey.signature(for: tbs).derRepresentation }
        let intermediateBuilder = X509CertificateBuilder(
            subject: [("CN", Self.intermediateName), ("O", Self.organization)],
            issuer: try X509Certificate(derRepresentation: root), serialNumber: Self.serialNumber(),
            notBefore: now.addingTimeInterval(-86400), notAfter: now.addingTimeInterval(10 * 365 * 86400),
            subjectPublicKeyInfo: intermediateKey.publicKey.derRepresentation, isCertificateAuthority: true, pathLength: 0)
        let intermediate = try intermediateBuilder.certificate { tbs in try rootKey.signature(for: tbs).derRepresentation }
        // The keys first, the intermediate's key last: `read` treats the authority as made once every file is there.
        try store(rootKey.dataRepresentation, "root.key")
        try store(Data(PEM.encode(label: "CERTIFICATE", der: root).utf8), "root.pem")
        try store(Data(PEM.encode(label: "CERTIFICATE", der: intermediate).utf8), "intermediate.pem")
        try store(intermediateKey.dataRepresentation, "intermediate.key")
        return Material(root: root, intermediate: intermediate, intermediateKey: intermediateKey.dataRepresentation)
    }

    private func read() -> Material? {
        guard let key = FileManager.default.contents(atPath: file("intermediate.key").path),
              let root = certificate("root.pem"), let intermediate = certificate("intermediate.pem") else { return nil }
        return Material(root: root, intermediate: intermediate, intermediateKey: key)
    }

    private func certificate(_ name: String) -> Data? {
        guard let data = FileManager.default.contents(atPath: file(name).path),
              let text = String(data: data, encoding: .utf8),
              let der = try? PEM.decode(text, labels: ["CERTIFICATE"]).der else { return nil }
        return der
    }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Writes a file of the authority (0600) and syncs it.
    private func store(_ data: Data, _ name: String) throws {
        let path = file(name).path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DCError(.serverUnavailable, reason: "cannot write \(path): errno \(errno)") }
        defer { close(fd) }
        let written = data.withUnsafeBytes { raw in raw.baseAddress.map { Glibc.write(fd, $0, raw.count) } ?? 0 }
        guard written == data.count, fsync(fd) == 0 else {
            throw DCError(.serverUnavailable, reason: "cannot write \(path): errno \(errno)")
        }
    }

    private func withLock<T>(_ body: () throws -> T) throws -> T {
        let path = file("authority.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DCError(.serverUnavailable, reason: "cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw DCError(.serverUnavailable, reason: "cannot lock \(path): errno \(errno)") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// A positive 16-byte serial number.
    private static func serialNumber() -> Data {
        var bytes = SodiumRandom.bytes(count: 16)
        bytes[bytes.startIndex] = bytes[bytes.startIndex] & 0x7f | 0x01
        return bytes
    }
}
#endif
