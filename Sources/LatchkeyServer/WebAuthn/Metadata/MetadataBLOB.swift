import Foundation
import LatchkeyCrypto

/// A FIDO Metadata Service (MDS3) BLOB, verified: a compact JWS (RS256 or ES256) whose `x5c` header chain
/// leads to the FIDO root the caller supplies, with the MDS3 payload (MDS3 §3.1.6, §3.2).
///
/// Nothing is fetched: the BLOB and the root are files the operator downloads (the real root is
/// "FIDO Alliance Global Root"). CRLs of the chain are not checked (that needs the network).
public struct MetadataBLOB: Sendable {
    /// What to do with a BLOB whose `nextUpdate` has passed.
    public enum StalePolicy: Sendable, Hashable {
        /// Accept it; `isStale(at:)` says so and `latchkey serve` prints a warning. The default: a BLOB a
        /// few days old still names revoked authenticators, and refusing to start would drop that knowledge.
        case warn
        /// Refuse it with `MetadataError.stale`.
        case refuse
    }

    /// The largest BLOB accepted (the real one is a few MiB).
    public static let maximumSize = 64 * 1024 * 1024

    public var legalHeader: String?
    /// The serial number: a later BLOB has a larger one.
    public var number: Int
    /// When the next BLOB is due (UTC midnight of `nextUpdate`).
    public var nextUpdate: Date
    public var entries: [MetadataBLOBEntry]
    /// The `x5c` chain that signed it, leaf first.
    public var signers: [Certificate]

    /// Verifies and parses `jws`: the header must be RS256 or ES256 with an `x5c`; the chain must verify to one of
    /// `roots` at `now`; the leaf's key must verify the signature; then the payload is decoded.
    public init(jws: String, roots: [Certificate], now: Date = Date(), stalePolicy: StalePolicy = .warn)
        throws(MetadataError) {
        let token: JWS
        do { token = try JWS(compactSerialization: jws.trimmingCharacters(in: .whitespacesAndNewlines),
                             maximumSize: Self.maximumSize) } catch {
            throw .malformedBLOB(error.localizedDescription)
        }
        guard token.header.alg == .RS256 || token.header.alg == .ES256 else {
            throw .malformedBLOB("alg \(token.header.alg.rawValue) (MDS3 uses RS256 or ES256)")
        }
        guard case let .array(items)? = token.header["x5c"], !items.isEmpty, items.count <= 8 else {
            throw .malformedBLOB("the header has no x5c certificate chain")
        }
        var chain: [Certificate] = []
        for item in items {
            guard let text = item.stringValue, let der = Data(base64Encoded: text) else {
                throw .malformedBLOB("an x5c entry is not base64")
            }
            do { chain.append(try Certificate(derRepresentation: der)) } catch {
                throw .malformedBLOB("an x5c certificate does not parse")
            }
        }
        guard !roots.isEmpty else { throw .untrustedSigner("no root certificate given") }
        do { try chain[0].verifyChain(intermediates: Array(chain.dropFirst()), trustAnchors: roots, at: now) } catch {
            throw .untrustedSigner(error.localizedDescription)
        }
        let key: JWSVerificationKey
        do {
            let spki = try chain[0].subjectPublicKeyInfo
            key = token.header.alg == .RS256 ? .rsa(try RSA.Signing.PublicKey(derRepresentation: spki))
                                             : .p256(try P256.Signing.PublicKey(derRepresentation: spki))
        } catch {
            throw .malformedBLOB("the x5c leaf's key does not suit \(token.header.alg.rawValue)")
        }
        do { try token.verify(using: key, allowedAlgorithms: [.RS256, .ES256]) } catch { throw .signatureInvalid }

        let payload: Payload
        do { payload = try JSONDecoder().decode(Payload.self, from: token.payload) } catch {
            throw .malformedPayload(Self.reason(error))
        }
        guard let next = MetadataDate.parse(payload.nextUpdate) else {
            throw .malformedPayload("nextUpdate \(payload.nextUpdate) is not a date")
        }
        if stalePolicy == .refuse, next < now { throw .stale(nextUpdate: next) }
        legalHeader = payload.legalHeader
        number = payload.no
        nextUpdate = next
        entries = payload.entries
        signers = chain
    }

    /// Whether `nextUpdate` has passed at `date`: a newer BLOB should be downloaded.
    public func isStale(at date: Date = Date()) -> Bool { nextUpdate < date }

    /// Reads the BLOB and the root certificate (PEM or DER) from files.
    public init(contentsOf blobPath: String, rootCertificate rootPath: String, now: Date = Date(),
                stalePolicy: StalePolicy = .warn) throws(MetadataError) {
        let text: String
        do { text = try String(contentsOfFile: blobPath, encoding: .utf8) } catch {
            throw .malformedBLOB("cannot read \(blobPath)")
        }
        try self.init(jws: text, roots: try Self.rootCertificates(contentsOf: rootPath), now: now, stalePolicy: stalePolicy)
    }

    /// The certificates of a root file: one or more PEM `CERTIFICATE` blocks, or one DER certificate.
    public static func rootCertificates(contentsOf path: String) throws(MetadataError) -> [Certificate] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableRoot("cannot read \(path)") }
        return try rootCertificates(data)
    }

    /// The certificates of PEM text (`CERTIFICATE` blocks) or of one DER certificate.
    public static func rootCertificates(_ data: Data) throws(MetadataError) -> [Certificate] {
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") else {
            do { return [try Certificate(derRepresentation: data)] } catch { throw .unreadableRoot("neither PEM nor DER") }
        }
        do { return try Certificate.all(pem: text) } catch { throw .unreadableRoot(error.localizedDescription) }
    }

    struct Payload: Decodable {
        var legalHeader: String?
        var no: Int
        var nextUpdate: String
        var entries: [MetadataBLOBEntry]
    }

    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "\(key.stringValue) missing at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted?: return "not JSON"
        default: return "not JSON"
        }
    }
}
