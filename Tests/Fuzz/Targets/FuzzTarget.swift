import Foundation

/// The fuzz targets: one per parser of attacker-controlled bytes. `run` feeds one input to the parser the
/// way the product calls it and checks the target's property; a crash is a bug in the parser, a thrown
/// `FuzzPropertyViolation` is a broken property. The libFuzzer driver (Tests/Fuzz/Driver, built by
/// scripts/fuzz.sh) calls `run` for every input; `FuzzRegressionTests` replays Tests/Fuzz/Regressions/<name>/.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case cbor
    case cose
    case attestation
    case clientData = "client-data"
    case jwt
    case jwk
    case x509
    case phc
    case http
    case queryDictionary = "query-dictionary"
    case fileVault = "file-vault"
    case appAttest = "app-attest"

    /// The directory name under Tests/Fuzz/Corpus and Tests/Fuzz/Regressions.
    public var name: String { rawValue }

    /// Feeds `data` to the parser and checks the property. Parser errors are the expected answer to bad input.
    public func run(_ data: Data) throws(FuzzPropertyViolation) {
        switch self {
        case .cbor: try CBORFuzzing.run(data)
        case .cose: try COSEFuzzing.run(data)
        case .attestation: try AttestationFuzzing.run(data)
        case .clientData: try ClientDataFuzzing.run(data)
        case .jwt: try JWTFuzzing.run(data)
        case .jwk: try JWKFuzzing.run(data)
        case .x509: try X509Fuzzing.run(data)
        case .phc: try PHCFuzzing.run(data)
        case .http: try HTTPFuzzing.run(data)
        case .queryDictionary: try QueryDictionaryFuzzing.run(data)
        case .fileVault: try FileVaultFuzzing.run(data)
        case .appAttest: try AppAttestFuzzing.run(data)
        }
    }

    /// Valid inputs to start the corpus from, built from the repository's test vectors and from the library's
    /// own encoders (X.509 seeds come from scripts/fuzz.sh, which makes certificates with `openssl`).
    public func seeds() -> [Data] {
        switch self {
        case .cbor: CBORFuzzing.seeds()
        case .cose: COSEFuzzing.seeds()
        case .attestation: AttestationFuzzing.seeds()
        case .clientData: ClientDataFuzzing.seeds()
        case .jwt: JWTFuzzing.seeds()
        case .jwk: JWKFuzzing.seeds()
        case .x509: []
        case .phc: PHCFuzzing.seeds()
        case .http: HTTPFuzzing.seeds()
        case .queryDictionary: QueryDictionaryFuzzing.seeds()
        case .fileVault: FileVaultFuzzing.seeds()
        case .appAttest: AppAttestFuzzing.seeds()
        }
    }
}
