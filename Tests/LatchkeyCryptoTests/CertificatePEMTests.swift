import Foundation
import Testing
import LatchkeyCrypto

/// `Certificate(pem:)`, `Certificate.all(pem:)` and `pemRepresentation`, against certificates made by the `openssl` command.
@Suite struct CertificatePEMTests {
    /// A scratch directory with `openssl`-made self-signed certificates.
    struct OpenSSLDirectory {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-pem-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }

        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

        func openssl(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        /// A self-signed P-256 certificate named `name`: (PEM text, DER bytes), both written by openssl.
        func certificate(_ name: String) throws -> (pem: String, der: Data) {
            try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                         "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-days", "30",
                         "-subj", "/O=Latchkey Test/CN=\(name)"])
            try openssl(["x509", "-in", path("\(name).pem"), "-outform", "DER", "-out", path("\(name).der")])
            return (try String(contentsOfFile: path("\(name).pem"), encoding: .utf8),
                    try Data(contentsOf: URL(fileURLWithPath: path("\(name).der"))))
        }

        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    @Test func readsOneCertificateAndWritesItBack() throws {
        let scratch = try OpenSSLDirectory()
        defer { scratch.remove() }
        let made = try scratch.certificate("one")
        let certificate = try Certificate(pem: made.pem)
        #expect(certificate.derRepresentation == made.der)
        #expect(certificate.subjectAttribute("CN") == ["one"])
        // What we write is PEM openssl reads back to the same DER, and we read it again.
        let pem = certificate.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n") && pem.hasSuffix("-----END CERTIFICATE-----\n"))
        #expect(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })
        try pem.write(toFile: scratch.path("ours.pem"), atomically: true, encoding: .utf8)
        try scratch.openssl(["x509", "-in", scratch.path("ours.pem"), "-outform", "DER", "-out", scratch.path("ours.der")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("ours.der"))) == made.der)
        #expect(try Certificate(pem: pem) == certificate)
    }

    @Test func readsEveryCertificateOfABundleSkippingOtherBlocks() throws {
        let scratch = try OpenSSLDirectory()
        defer { scratch.remove() }
        let a = try scratch.certificate("a"), b = try scratch.certificate("b")
        let key = try String(contentsOfFile: scratch.path("a.key"), encoding: .utf8)
        let bundle = "Issuer: a\n" + a.pem + "\n" + key + b.pem
        let all = try Certificate.all(pem: bundle)
        #expect(all.map(\.derRepresentation) == [a.der, b.der])
        // `init(pem:)` takes the first certificate.
        #expect(try Certificate(pem: bundle).derRepresentation == a.der)
        #expect(try Certificate(pem: key + b.pem).derRepresentation == b.der)
    }

    @Test func refusesWhatIsNoCertificateWithTypedErrors() throws {
        let scratch = try OpenSSLDirectory()
        defer { scratch.remove() }
        let a = try scratch.certificate("a")
        let key = try String(contentsOfFile: scratch.path("a.key"), encoding: .utf8)
        #expect(throws: CertificatePEMError.noCertificate) { try Certificate.all(pem: "") }
        #expect(throws: CertificatePEMError.noCertificate) { try Certificate.all(pem: "just text\n") }
        #expect(throws: CertificatePEMError.noCertificate) { try Certificate(pem: key) }
        #expect(throws: CertificatePEMError.noCertificate) { try Certificate(pem: a.der.base64EncodedString()) }

        // The second block's base64 is broken: the error says which block.
        let broken = "-----BEGIN CERTIFICATE-----\nMIIB!!!!not*base64\n-----END CERTIFICATE-----\n"
        #expect {
            try Certificate.all(pem: a.pem + broken)
        } throws: { error in
            guard case .malformedCertificate(index: 2, _)? = error as? CertificatePEMError else { return false }
            return true
        }
        // Valid base64 that is not a certificate.
        let notDER = "-----BEGIN CERTIFICATE-----\n" + Data("hello world".utf8).base64EncodedString()
            + "\n-----END CERTIFICATE-----\n"
        #expect {
            try Certificate(pem: notDER)
        } throws: { error in
            guard case .malformedCertificate(index: 1, _)? = error as? CertificatePEMError else { return false }
            return true
        }
        // A block with no end line.
        let truncated = String(a.pem.prefix(a.pem.count - 30))
        #expect(throws: CertificatePEMError.self) { try Certificate(pem: truncated) }
        // An encrypted block is refused (no password is ever asked for).
        let lines = a.pem.split(separator: "\n", omittingEmptySubsequences: false)
        let encrypted = ([lines[0], "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF", ""]
                         + lines.dropFirst()).joined(separator: "\n")
        #expect(throws: CertificatePEMError.self) { try Certificate(pem: encrypted) }
        #expect(throws: CertificatePEMError.inputTooLarge(limit: Certificate.maxPEMSize)) {
            try Certificate.all(pem: String(repeating: "x", count: Certificate.maxPEMSize + 1))
        }
    }
}
