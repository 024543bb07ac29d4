import Foundation
import Security
import XCTest

/// Certificate pinning and trust evaluation as URLSession delegates write it, on real chains made by `openssl`.
final class SecTrustTests: XCTestCase {
    var pki: TestPKI!

    override func setUpWithError() throws {
        pki = try TestPKI.shared.get()
    }

    func certificate(_ der: Data) throws -> SecCertificate {
        try XCTUnwrap(SecCertificateCreateWithData(nil, der as CFData))
    }

    /// A trust for `certificates` (leaf first) under `policy`, anchored at `anchors` when given.
    func makeTrust(_ certificates: [Data], policy: SecPolicy = SecPolicyCreateSSL(true, "leaf.example.test" as CFString),
                   anchors: [Data]? = nil) throws -> SecTrust {
        let certs = try certificates.map(certificate)
        var trust: SecTrust?
        XCTAssertEqual(SecTrustCreateWithCertificates(certs as CFArray, policy, &trust), errSecSuccess)
        let result = try XCTUnwrap(trust)
        if let anchors {
            XCTAssertEqual(SecTrustSetAnchorCertificates(result, try anchors.map(certificate) as CFArray), errSecSuccess)
        }
        return result
    }

    /// The code of the error `SecTrustEvaluateWithError` reports (nil when trusted).
    func evaluationError(_ trust: SecTrust) -> NSError? {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        XCTAssertEqual(trusted, error == nil)
        return error.map { $0 as Error as NSError }
    }

    func testValidChainWithTheRootAsAnchorIsTrusted() throws {
        let trust = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        XCTAssertNil(evaluationError(trust))
        XCTAssertEqual(SecTrustGetCertificateCount(trust), 3)
        var result = SecTrustResultType.invalid
        XCTAssertEqual(SecTrustGetTrustResult(trust, &result), errSecSuccess)
        XCTAssertEqual(result, .unspecified)
        let chain = try XCTUnwrap(SecTrustCopyCertificateChain(trust) as? [SecCertificate])
        XCTAssertEqual(chain.map { SecCertificateCopyData($0) as Data }, [pki.leaf, pki.intermediate, pki.root])
        XCTAssertEqual(chain.compactMap { SecCertificateCopySubjectSummary($0) as String? },
                       ["leaf.example.test", "Latchkey Test Intermediate", "Latchkey Test Root"])
    }

    func testASingleCertificateAndPolicyArrayAreAccepted() throws {
        var trust: SecTrust?
        let policies = [SecPolicyCreateBasicX509(), SecPolicyCreateSSL(true, "leaf.example.test" as CFString)]
        XCTAssertEqual(SecTrustCreateWithCertificates(try certificate(pki.leaf), policies as CFArray, &trust), errSecSuccess)
        let t = try XCTUnwrap(trust)
        // The intermediate pinned as the anchor ends the chain (Apple accepts any certificate as an anchor).
        XCTAssertEqual(SecTrustSetAnchorCertificates(t, [try certificate(pki.intermediate)] as CFArray), errSecSuccess)
        XCTAssertNil(evaluationError(t))
        XCTAssertEqual(SecTrustGetCertificateCount(t), 2)
        // A Swift array passed as CFTypeRef, as some call sites do.
        var boxed: SecTrust?
        let certs: [SecCertificate] = [try certificate(pki.leaf), try certificate(pki.intermediate)]
        XCTAssertEqual(SecTrustCreateWithCertificates(certs as CFTypeRef, SecPolicyCreateBasicX509(), &boxed), errSecSuccess)
        XCTAssertEqual(boxed.map { SecTrustGetCertificateCount($0) }, 2)
        var copied: CFArray?
        XCTAssertEqual(SecTrustCopyPolicies(t, &copied), errSecSuccess)
        XCTAssertEqual((copied as? [SecPolicy])?.count, 2)
    }

    func testExpiredLeafIsReportedAsExpired() throws {
        let trust = try makeTrust([pki.expiredLeaf, pki.intermediate], anchors: [pki.root])
        let error = try XCTUnwrap(evaluationError(trust))
        XCTAssertEqual(error.domain, NSOSStatusErrorDomain)
        XCTAssertEqual(error.code, Int(errSecCertificateExpired))
        XCTAssertTrue(error.localizedDescription.contains("leaf.example.test"), error.localizedDescription)
        var result = SecTrustResultType.invalid
        XCTAssertEqual(SecTrustEvaluate(trust, &result), errSecSuccess)
        XCTAssertEqual(result, .recoverableTrustFailure)
    }

    func testVerifyDateDecidesValidity() throws {
        let trust = try makeTrust([pki.expiredLeaf, pki.intermediate], anchors: [pki.root])
        XCTAssertEqual(evaluationError(trust)?.code, Int(errSecCertificateExpired))
        // Within the expired leaf's period the CAs (made today) are not valid yet.
        XCTAssertEqual(SecTrustSetVerifyDate(trust, Date(timeIntervalSince1970: 1_590_000_000) as CFDate), errSecSuccess)
        XCTAssertEqual(evaluationError(trust)?.code, Int(errSecCertificateNotValidYet))

        let valid = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        XCTAssertNil(evaluationError(valid))
        XCTAssertEqual(SecTrustSetVerifyDate(valid, pki.leafNotAfter.addingTimeInterval(86_400) as CFDate), errSecSuccess)
        XCTAssertEqual(evaluationError(valid)?.code, Int(errSecCertificateExpired))
        XCTAssertEqual(SecTrustSetVerifyDate(valid, pki.leafNotAfter.addingTimeInterval(-86_400) as CFDate), errSecSuccess)
        XCTAssertNil(evaluationError(valid))
    }

    func testWrongHostIsAHostNameMismatch() throws {
        let wrong = try makeTrust([pki.leaf, pki.intermediate], policy: SecPolicyCreateSSL(true, "other.example.test" as CFString),
                                  anchors: [pki.root])
        let error = try XCTUnwrap(evaluationError(wrong))
        XCTAssertEqual(error.code, Int(errSecHostNameMismatch))
        XCTAssertTrue(error.localizedDescription.contains("other.example.test"), error.localizedDescription)
        // Wildcards and parent domains do not match; the IP address in the subjectAltName does.
        for host in ["example.test", "x.leaf.example.test", "127.0.0.2", "leaf.example.test\0.evil"] {
            let t = try makeTrust([pki.leaf, pki.intermediate], policy: SecPolicyCreateSSL(true, host as CFString), anchors: [pki.root])
            XCTAssertEqual(evaluationError(t)?.code, Int(errSecHostNameMismatch), host)
        }
        for host in ["LEAF.example.test", "127.0.0.1"] {
            let t = try makeTrust([pki.leaf, pki.intermediate], policy: SecPolicyCreateSSL(true, host as CFString), anchors: [pki.root])
            XCTAssertNil(evaluationError(t), host)
        }
        // A name only in the subject's common name is not a host name (Apple since iOS 13).
        let client = try makeTrust([pki.clientLeaf, pki.intermediate],
                                   policy: SecPolicyCreateSSL(false, "client.example.test" as CFString), anchors: [pki.root])
        XCTAssertEqual(evaluationError(client)?.code, Int(errSecHostNameMismatch))
        // No host name: any name is accepted.
        let anyHost = try makeTrust([pki.leaf, pki.intermediate], policy: SecPolicyCreateSSL(true, nil), anchors: [pki.root])
        XCTAssertNil(evaluationError(anyHost))
    }

    func testUntrustedRootIsNotTrusted() throws {
        // Neither an anchor nor in the system store: with and without the root among the certificates.
        for certificates in [[pki.leaf, pki.intermediate], [pki.leaf, pki.intermediate, pki.root]] {
            let trust = try makeTrust(certificates)
            let error = try XCTUnwrap(evaluationError(trust))
            XCTAssertEqual(error.code, Int(errSecNotTrusted))
        }
        // Another root as the only anchor.
        let other = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.otherRoot])
        XCTAssertEqual(evaluationError(other)?.code, Int(errSecNotTrusted))
        // A missing intermediate breaks the chain.
        let broken = try makeTrust([pki.leaf], anchors: [pki.root])
        XCTAssertEqual(evaluationError(broken)?.code, Int(errSecNotTrusted))
        XCTAssertEqual(SecTrustGetCertificateCount(broken), 1)
    }

    func testServerPolicyRefusesAClientCertificate() throws {
        let trust = try makeTrust([pki.clientLeaf, pki.intermediate], policy: SecPolicyCreateSSL(true, nil), anchors: [pki.root])
        XCTAssertEqual(evaluationError(trust)?.code, Int(errSecInvalidExtendedKeyUsage))
        XCTAssertEqual(SecTrustSetPolicies(trust, SecPolicyCreateSSL(false, nil)), errSecSuccess)
        XCTAssertNil(evaluationError(trust))
        XCTAssertEqual(SecTrustSetPolicies(trust, SecPolicyCreateBasicX509()), errSecSuccess)
        XCTAssertNil(evaluationError(trust))
    }

    func testSystemStoreIsTrustedUnlessAnchorsOnly() throws {
        // A root from Debian's ca-certificates, evaluated as its own leaf.
        let pem = URL(fileURLWithPath: "/etc/ssl/certs/ISRG_Root_X1.pem")
        guard FileManager.default.fileExists(atPath: pem.path) else { throw XCTSkip("no ISRG Root X1 in /etc/ssl/certs") }
        let der = try XCTUnwrap(Data(base64Encoded: String(contentsOf: pem, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()))
        let trust = try makeTrust([der], policy: SecPolicyCreateBasicX509())
        XCTAssertNil(evaluationError(trust))
        XCTAssertEqual(SecTrustSetAnchorCertificates(trust, [try certificate(pki.root)] as CFArray), errSecSuccess)
        XCTAssertEqual(evaluationError(trust)?.code, Int(errSecNotTrusted))
        XCTAssertEqual(SecTrustSetAnchorCertificatesOnly(trust, false), errSecSuccess)
        XCTAssertNil(evaluationError(trust))
        XCTAssertEqual(SecTrustSetAnchorCertificates(trust, nil), errSecSuccess)
        XCTAssertNil(evaluationError(trust))
    }

    /// The pinning flow: evaluate, walk the chain, compare the leaf's key with the pinned one.
    func testPinnedPublicKeyMatchesTheLeaf() throws {
        let trust = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        var error: CFError?
        XCTAssertTrue(SecTrustEvaluateWithError(trust, &error))
        let chain = try XCTUnwrap(SecTrustCopyCertificateChain(trust) as? [SecCertificate])
        let leaf = try XCTUnwrap(chain.first)
        XCTAssertEqual(SecCertificateCopyData(leaf) as Data, pki.leaf)
        let key = try XCTUnwrap(SecCertificateCopyKey(leaf))
        var keyError: Unmanaged<CFError>?
        let keyData = try XCTUnwrap(SecKeyCopyExternalRepresentation(key, &keyError) as Data?)
        XCTAssertEqual(keyData, pki.leafPublicKey)
        let trustKey = try XCTUnwrap(SecTrustCopyKey(trust))
        XCTAssertEqual(SecKeyCopyExternalRepresentation(trustKey, &keyError) as Data?, pki.leafPublicKey)
        XCTAssertEqual(SecTrustGetCertificateAtIndex(trust, 0), leaf)
        XCTAssertNil(SecTrustGetCertificateAtIndex(trust, 3))
        // The pinned key of another certificate does not match.
        let rootKey = try XCTUnwrap(SecCertificateCopyKey(try certificate(pki.root)))
        XCTAssertNotEqual(SecKeyCopyExternalRepresentation(rootKey, &keyError) as Data?, pki.leafPublicKey)
    }

    /// RSA server certificates (the common case) are pinned the same way, and compare with a stored key.
    func testRSALeafKeyIsPinnable() throws {
        let trust = try makeTrust([pki.rsaLeaf, pki.intermediate], policy: SecPolicyCreateSSL(true, "rsa.example.test" as CFString),
                                  anchors: [pki.root])
        XCTAssertNil(evaluationError(trust))
        let key = try XCTUnwrap(SecTrustCopyKey(trust))
        var error: Unmanaged<CFError>?
        XCTAssertEqual(SecKeyCopyExternalRepresentation(key, &error) as Data?, pki.rsaLeafPublicKey)
        let attributes = try XCTUnwrap(SecKeyCopyAttributes(key) as? [String: Any])
        XCTAssertEqual(attributes[kSecAttrKeyType as String] as? String, kSecAttrKeyTypeRSA as String)
        XCTAssertEqual(attributes[kSecAttrKeySizeInBits as String] as? Int, 2048)
        XCTAssertEqual(attributes[kSecAttrKeyClass as String] as? String, kSecAttrKeyClassPublic as String)

        let pinnedAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        let pinned = try XCTUnwrap(SecKeyCreateWithData(pki.rsaLeafPublicKey as CFData, pinnedAttributes as CFDictionary, &error))
        XCTAssertEqual(pinned, key)
        XCTAssertEqual(Set([pinned, key]).count, 1)
        XCTAssertEqual(SecKeyCopyPublicKey(key), key)
        XCTAssertNotEqual(pinned, SecTrustCopyKey(try makeTrust([pki.leaf])))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .verify, .ecdsaSignatureMessageX962SHA256))

        let privateAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
        XCTAssertNil(SecKeyCreateWithData(pki.rsaLeafPublicKey as CFData, privateAttributes as CFDictionary, &error))
        XCTAssertEqual((try XCTUnwrap(error?.takeRetainedValue()) as Error as NSError).code, Int(errSecParam))
    }

    func testCertificateAccessors() throws {
        let leaf = try certificate(pki.leaf)
        XCTAssertEqual(SecCertificateCopySubjectSummary(leaf) as String?, "leaf.example.test")
        var commonName: CFString?
        XCTAssertEqual(SecCertificateCopyCommonName(leaf, &commonName), errSecSuccess)
        XCTAssertEqual(commonName as String?, "leaf.example.test")
        XCTAssertEqual(CFGetTypeID(leaf), SecCertificateGetTypeID())
        XCTAssertEqual(CFGetTypeID(SecPolicyCreateBasicX509()), SecPolicyGetTypeID())
        XCTAssertEqual(CFGetTypeID(try makeTrust([pki.leaf])), SecTrustGetTypeID())
        XCTAssertEqual(leaf, try certificate(pki.leaf))
        XCTAssertNotEqual(leaf, try certificate(pki.root))
    }

    func testGarbageIsNotACertificate() throws {
        XCTAssertNil(SecCertificateCreateWithData(nil, Data() as CFData))
        XCTAssertNil(SecCertificateCreateWithData(nil, Data("not a certificate".utf8) as CFData))
        XCTAssertNil(SecCertificateCreateWithData(nil, Data(repeating: 0x30, count: 300) as CFData))
        XCTAssertNil(SecCertificateCreateWithData(nil, pki.leaf.dropLast() as CFData))
        XCTAssertNil(SecCertificateCreateWithData(nil, (pki.leaf + Data([0])) as CFData))
        var trust: SecTrust?
        XCTAssertEqual(SecTrustCreateWithCertificates("leaf" as NSString, nil, &trust), errSecParam)
        XCTAssertEqual(SecTrustCreateWithCertificates(NSArray(), nil, &trust), errSecParam)
        XCTAssertNil(trust)
    }

    func testErrorTextIsKoreanWhenAsked() throws {
        setenv("LATCHKEY_LANG", "ko", 1)
        defer { unsetenv("LATCHKEY_LANG") }
        let trust = try makeTrust([pki.expiredLeaf, pki.intermediate], anchors: [pki.root])
        let error = try XCTUnwrap(evaluationError(trust))
        XCTAssertEqual(error.code, Int(errSecCertificateExpired))
        XCTAssertTrue(error.localizedDescription.contains("만료"), error.localizedDescription)
        XCTAssertEqual(SecCopyErrorMessageString(errSecHostNameMismatch, nil) as String?, "A host name mismatch has occurred.")
    }

    func testOneTrustEvaluatedFromManyThreads() throws {
        // The Linux SecTrust keeps its state behind a lock; it is not Sendable only because Apple's is not.
        nonisolated(unsafe) let trust = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in XCTAssertTrue(SecTrustEvaluateWithError(trust, nil)) }
        XCTAssertEqual(SecTrustGetCertificateCount(trust), 3)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            _ = SecTrustSetVerifyDate(trust, Date(timeIntervalSinceNow: Double(i)) as CFDate)
            XCTAssertTrue(SecTrustEvaluateWithError(trust, nil))
        }
    }

    func testAsyncEvaluationReportsOnTheQueue() throws {
        let trust = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        let done = expectation(description: "evaluated")
        let queue = DispatchQueue(label: "trust")
        XCTAssertEqual(SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, error in
            XCTAssertTrue(trusted)
            XCTAssertNil(error)
            done.fulfill()
        }, errSecSuccess)
        wait(for: [done], timeout: 30)
    }
}
