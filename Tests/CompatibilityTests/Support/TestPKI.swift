import Foundation

/// A throwaway PKI made by the `openssl` command: a root CA, an intermediate CA (pathlen 0) and leaves
/// signed by the intermediate, all P-256. Generated once per test process in a temporary directory that
/// is removed as soon as the DER bytes are read.
struct TestPKI: Sendable {
    let root: Data
    let intermediate: Data
    /// CN and SAN leaf.example.test (and IP 127.0.0.1), serverAuth, valid for 365 days from now.
    let leaf: Data
    /// As `leaf`, valid 2020-01-01 to 2021-01-01.
    let expiredLeaf: Data
    /// CN client.example.test, clientAuth only.
    let clientLeaf: Data
    /// CN and SAN rsa.example.test, an RSA-2048 key, serverAuth.
    let rsaLeaf: Data
    /// The RSA leaf's public key as PKCS#1 `RSAPublicKey` DER (`openssl rsa -RSAPublicKey_out`).
    let rsaLeafPublicKey: Data
    /// A second, unrelated root CA.
    let otherRoot: Data
    /// The leaf's public key, 04‖x‖y, as `openssl ec -pubout` prints it.
    let leafPublicKey: Data
    /// The leaf's validity, as `openssl x509 -enddate` prints it.
    let leafNotAfter: Date

    static let shared: Result<TestPKI, TestPKIError> = Result { () throws(TestPKIError) -> TestPKI in try TestPKI.make() }

    static func make() throws(TestPKIError) -> TestPKI {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-pki-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch { throw .openssl("mkdir \(dir.path)") }
        defer { try? FileManager.default.removeItem(at: dir) }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let caExtensions = ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]
        try write("basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n", "int.ext", dir)
        try write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                  + "subjectAltName=DNS:leaf.example.test,IP:127.0.0.1\n", "leaf.ext", dir)
        try write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                  + "extendedKeyUsage=serverAuth\nsubjectAltName=DNS:rsa.example.test\n", "rsa.ext", dir)
        try write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n",
                  "client.ext", dir)
        // `openssl ca` is the only 3.0 command that takes explicit start and end dates.
        try write("[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial.txt\n"
                  + "default_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n", "ca.cnf", dir)
        try write("", "index.txt", dir)
        try write("10\n", "serial.txt", dir)

        for (name, cn) in [("root", "Latchkey Test Root"), ("other", "Latchkey Other Root")] {
            try openssl(["req", "-x509"] + ec + ["-keyout", "\(name).key", "-out", "\(name).pem", "-days", "3650",
                         "-subj", "/CN=\(cn)"] + caExtensions, in: dir)
        }
        try openssl(["req", "-new"] + ec + ["-keyout", "int.key", "-out", "int.csr", "-subj", "/CN=Latchkey Test Intermediate"], in: dir)
        try openssl(["x509", "-req", "-in", "int.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2",
                     "-days", "3650", "-extfile", "int.ext", "-out", "int.pem"], in: dir)
        try openssl(["req", "-new"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=leaf.example.test"], in: dir)
        try openssl(["x509", "-req", "-in", "leaf.csr", "-CA", "int.pem", "-CAkey", "int.key", "-set_serial", "3",
                     "-days", "365", "-extfile", "leaf.ext", "-out", "leaf.pem"], in: dir)
        try openssl(["ca", "-batch", "-config", "ca.cnf", "-cert", "int.pem", "-keyfile", "int.key", "-in", "leaf.csr",
                     "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20210101000000Z",
                     "-extfile", "leaf.ext", "-notext"], in: dir)
        try openssl(["req", "-new"] + ec + ["-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=client.example.test"], in: dir)
        try openssl(["x509", "-req", "-in", "client.csr", "-CA", "int.pem", "-CAkey", "int.key", "-set_serial", "4",
                     "-days", "365", "-extfile", "client.ext", "-out", "client.pem"], in: dir)
        try openssl(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsa.key", "-out", "rsa.csr",
                     "-subj", "/CN=rsa.example.test"], in: dir)
        try openssl(["x509", "-req", "-in", "rsa.csr", "-CA", "int.pem", "-CAkey", "int.key", "-set_serial", "5",
                     "-days", "365", "-extfile", "rsa.ext", "-out", "rsa.pem"], in: dir)
        try openssl(["rsa", "-in", "rsa.key", "-RSAPublicKey_out", "-outform", "DER", "-out", "rsa.pub.der"], in: dir)
        for name in ["root", "other", "int", "leaf", "expired", "client", "rsa"] {
            try openssl(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"], in: dir)
        }
        try openssl(["ec", "-in", "leaf.key", "-pubout", "-outform", "DER", "-out", "leaf.pub.der"], in: dir)
        let endDate = try openssl(["x509", "-in", "leaf.pem", "-noout", "-enddate"], in: dir)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        let text = endDate.replacingOccurrences(of: "notAfter=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard let notAfter = formatter.date(from: text) else { throw .openssl("unreadable end date \(text)") }

        func der(_ name: String) throws(TestPKIError) -> Data {
            do { return try Data(contentsOf: dir.appendingPathComponent(name)) } catch { throw .openssl("read \(name)") }
        }
        // A P-256 SubjectPublicKeyInfo ends with the 65-byte uncompressed point.
        let spki = try der("leaf.pub.der")
        return TestPKI(root: try der("root.der"), intermediate: try der("int.der"), leaf: try der("leaf.der"),
                       expiredLeaf: try der("expired.der"), clientLeaf: try der("client.der"),
                       rsaLeaf: try der("rsa.der"), rsaLeafPublicKey: try der("rsa.pub.der"),
                       otherRoot: try der("other.der"), leafPublicKey: spki.suffix(65), leafNotAfter: notAfter)
    }

    private static func write(_ text: String, _ name: String, _ dir: URL) throws(TestPKIError) {
        do { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) } catch { throw .openssl("write \(name)") }
    }

    /// Runs `openssl args` in `dir`; its standard output, or an error with its standard error.
    @discardableResult
    static func openssl(_ args: [String], in dir: URL) throws(TestPKIError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + args
        process.currentDirectoryURL = dir
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { throw .openssl("cannot run openssl") }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .openssl("openssl \(args.first ?? ""): \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }
}

enum TestPKIError: Error, CustomStringConvertible {
    case openssl(String)
    var description: String {
        switch self { case let .openssl(m): "PKI fixture: \(m)" }
    }
}
