import Foundation

/// A COSE_Key (RFC 9052 §7, RFC 9053) for the signature algorithms WebAuthn uses:
/// EC2 P-256/ES256, EC2 P-384/ES384, OKP Ed25519/EdDSA, RSA RS256/PS256.
public enum COSEKey: Sendable, Hashable {
    case ec2(algorithm: COSEAlgorithm, curve: COSECurve, x: Data, y: Data)
    case okp(algorithm: COSEAlgorithm, curve: COSECurve, x: Data)
    case rsa(algorithm: COSEAlgorithm, modulus: Data, exponent: Data)

    // COSE labels (RFC 9052 §7.1, RFC 9053 §7, RFC 8230 §4).
    static let labelKty: Int64 = 1, labelAlg: Int64 = 3
    static let labelCrv: Int64 = -1, labelX: Int64 = -2, labelY: Int64 = -3
    static let labelN: Int64 = -1, labelE: Int64 = -2
    static let ktyOKP = 1, ktyEC2 = 2, ktyRSA = 3

    /// Parses a COSE_Key map, checking that key type, algorithm and curve agree and that
    /// coordinates have the curve's length. Private parameters (`d`) are refused.
    public init(cbor: CBOR) throws(CryptoError) {
        guard cbor.mapEntries != nil else { throw .malformedInput("COSE key is not a map") }
        guard let kty = cbor[int: Self.labelKty]?.intValue else { throw .malformedInput("COSE key without kty") }
        guard let algValue = cbor[int: Self.labelAlg]?.intValue else { throw .malformedInput("COSE key without alg") }
        guard let alg = COSEAlgorithm(rawValue: algValue) else { throw .unsupportedAlgorithm("COSE alg \(algValue)") }
        switch kty {
        case Self.ktyEC2:
            guard cbor[int: -4] == nil else { throw .malformedInput("COSE key holds a private key") }
            guard let crvValue = cbor[int: Self.labelCrv]?.intValue, let crv = COSECurve(rawValue: crvValue)
            else { throw .unsupportedAlgorithm("COSE EC2 curve") }
            guard let x = cbor[int: Self.labelX]?.bytesValue, let y = cbor[int: Self.labelY]?.bytesValue else {
                throw .malformedInput("COSE EC2 key needs x and y (compressed points are not accepted)")
            }
            let size: Int
            switch (alg, crv) {
            case (.es256, .p256): size = 32
            case (.es384, .p384): size = 48
            default: throw .unsupportedAlgorithm("COSE alg \(alg.rawValue) with curve \(crv.rawValue)")
            }
            guard x.count == size, y.count == size else { throw .malformedInput("COSE EC2 coordinate length") }
            self = .ec2(algorithm: alg, curve: crv, x: x, y: y)
        case Self.ktyOKP:
            guard cbor[int: -4] == nil else { throw .malformedInput("COSE key holds a private key") }
            guard alg == .edDSA, cbor[int: Self.labelCrv]?.intValue == COSECurve.ed25519.rawValue else {
                throw .unsupportedAlgorithm("COSE OKP key must be Ed25519 / EdDSA")
            }
            guard let x = cbor[int: Self.labelX]?.bytesValue, x.count == 32 else {
                throw .malformedInput("COSE Ed25519 key length")
            }
            self = .okp(algorithm: alg, curve: .ed25519, x: x)
        case Self.ktyRSA:
            guard alg == .rs256 || alg == .ps256 else { throw .unsupportedAlgorithm("COSE RSA alg \(alg.rawValue)") }
            guard let n = cbor[int: Self.labelN]?.bytesValue, let e = cbor[int: Self.labelE]?.bytesValue,
                  !n.isEmpty, !e.isEmpty else { throw .malformedInput("COSE RSA key needs n and e") }
            self = .rsa(algorithm: alg, modulus: n, exponent: e)
        default:
            throw .unsupportedAlgorithm("COSE kty \(kty)")
        }
    }

    /// Parses the CBOR bytes of a COSE_Key.
    public init(encoded: Data) throws(CryptoError) {
        let item: CBOR
        do { item = try CBORDecoder(requireCanonical: false).decode(encoded) } catch {
            throw .malformedInput("COSE key CBOR: \(error)")
        }
        try self.init(cbor: item)
    }

    public var algorithm: COSEAlgorithm {
        switch self {
        case let .ec2(alg, _, _, _), let .okp(alg, _, _), let .rsa(alg, _, _): alg
        }
    }

    /// The COSE_Key map with labels in canonical order.
    public var cbor: CBOR {
        switch self {
        case let .ec2(alg, crv, x, y):
            .map([.int(Self.labelKty): .int(Int64(Self.ktyEC2)), .int(Self.labelAlg): .int(Int64(alg.rawValue)),
                  .int(Self.labelCrv): .int(Int64(crv.rawValue)), .int(Self.labelX): .byteString(x),
                  .int(Self.labelY): .byteString(y)])
        case let .okp(alg, crv, x):
            .map([.int(Self.labelKty): .int(Int64(Self.ktyOKP)), .int(Self.labelAlg): .int(Int64(alg.rawValue)),
                  .int(Self.labelCrv): .int(Int64(crv.rawValue)), .int(Self.labelX): .byteString(x)])
        case let .rsa(alg, n, e):
            .map([.int(Self.labelKty): .int(Int64(Self.ktyRSA)), .int(Self.labelAlg): .int(Int64(alg.rawValue)),
                  .int(Self.labelN): .byteString(n), .int(Self.labelE): .byteString(e)])
        }
    }

    public var encoded: Data { cbor.encoded }
}

/// COSE algorithm identifiers Latchkey verifies.
public enum COSEAlgorithm: Int, Sendable, Hashable, Codable, CaseIterable {
    case es256 = -7
    case es384 = -35
    case edDSA = -8
    case rs256 = -257
    case ps256 = -37
}

/// COSE elliptic curves (RFC 9053 §7.1).
public enum COSECurve: Int, Sendable, Hashable, Codable {
    case p256 = 1
    case p384 = 2
    case ed25519 = 6
}
