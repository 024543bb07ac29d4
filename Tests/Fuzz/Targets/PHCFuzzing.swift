import Foundation
import LatchkeyCrypto

/// PHC strings of stored password hashes. Property: the parser is strict, so a string that parses is its own
/// canonical encoding.
enum PHCFuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        let text = String(decoding: data, as: UTF8.self)
        guard let phc = try? Argon2id.PHCString.parse(text) else { return }
        try require(phc.encoded == text, .phc, "a parsed PHC string is not its canonical encoding")
        _ = Argon2id.needsRehash(text, parameters: .owasp)
    }

    static func seeds() -> [Data] {
        var seeds: [Data] = []
        let cheap = Argon2id.Parameters(memoryKiB: Argon2id.Parameters.minimumMemoryKiB,
                                        iterations: Argon2id.Parameters.minimumIterations)
        if let phc = try? Argon2id.hash(password: Data("correct horse".utf8), parameters: cheap) { seeds.append(Data(phc.utf8)) }
        seeds.append(Data("$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g".utf8))
        seeds.append(Data("$argon2id$v=19$m=65536,t=3,p=4$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".utf8))
        return seeds
    }
}
