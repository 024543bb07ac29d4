import Foundation
import LatchkeyCrypto
import Testing

private func keyHex(_ key: SymmetricKey) -> String { key.withUnsafeBytes { Data($0).hexString } }

/// RFC 7914 §11, PBKDF2-HMAC-SHA256 test vectors.
@Suite struct PBKDF2Tests {
    @Test func rfc7914OneIteration() throws {
        let key = try PBKDF2.deriveKey(password: Data("passwd".utf8), salt: Data("salt".utf8), iterations: 1,
                                       outputByteCount: 64)
        #expect(keyHex(key)
            == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test func rfc7914EightyThousandIterations() throws {
        let key = try PBKDF2.deriveKey(password: Array("Password".utf8), salt: Data("NaCl".utf8), iterations: 80000,
                                       outputByteCount: 64, algorithm: .sha256)
        #expect(keyHex(key)
            == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    @Test func rejectsBadParameters() {
        #expect(throws: CryptoError.self) {
            try PBKDF2.deriveKey(password: Data("p".utf8), salt: Data("s".utf8), iterations: 0, outputByteCount: 32)
        }
        #expect(throws: CryptoError.self) {
            try PBKDF2.deriveKey(password: Data("p".utf8), salt: Data("s".utf8), iterations: -5, outputByteCount: 32)
        }
        #expect(throws: CryptoError.self) {
            try PBKDF2.deriveKey(password: Data("p".utf8), salt: Data("s".utf8), iterations: 1, outputByteCount: 0)
        }
        #expect(throws: CryptoError.self) {
            try PBKDF2.deriveKey(password: Data("p".utf8), salt: Data("s".utf8), iterations: 1,
                                 outputByteCount: PBKDF2.maximumOutputByteCount + 1)
        }
    }

    @Test func emptyPasswordAndOtherHashes() throws {
        let empty = try PBKDF2.deriveKey(password: Data(), salt: Data("salt".utf8), iterations: 2, outputByteCount: 32)
        #expect(empty.bitCount / 8 == 32)
        let sha512 = try PBKDF2.deriveKey(password: Data("pw".utf8), salt: Data("salt".utf8), iterations: 2,
                                          outputByteCount: 32, algorithm: .sha512)
        let sha256 = try PBKDF2.deriveKey(password: Data("pw".utf8), salt: Data("salt".utf8), iterations: 2,
                                          outputByteCount: 32)
        #expect(sha512 != sha256)
    }
}
