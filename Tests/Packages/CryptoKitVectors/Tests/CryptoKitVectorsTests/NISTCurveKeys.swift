import CryptoKit
import Foundation

// The NIST-curve key types of CryptoKit share their shape but no protocol; these protocols (conformed to here, in the
// tests) let one generic test run on P256, P384 and P521, for signing and key-agreement keys alike.

protocol NISTPublicKeyUnderTest {
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    init<Bytes: ContiguousBytes>(compactRepresentation: Bytes) throws
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
    init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws
    init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8
    init(pemRepresentation: String) throws
    var rawRepresentation: Data { get }
    var compactRepresentation: Data? { get }
    var x963Representation: Data { get }
    var compressedRepresentation: Data { get }
    var derRepresentation: Data { get }
    var pemRepresentation: String { get }
}

protocol NISTPrivateKeyUnderTest {
    associatedtype PublicKey: NISTPublicKeyUnderTest
    init(compactRepresentable: Bool)
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
    init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8
    init(pemRepresentation: String) throws
    var publicKey: PublicKey { get }
    var rawRepresentation: Data { get }
    var x963Representation: Data { get }
    var derRepresentation: Data { get }
    var pemRepresentation: String { get }
}

protocol ECDSASignatureUnderTest {
    init<D: DataProtocol>(rawRepresentation: D) throws
    init<D: DataProtocol>(derRepresentation: D) throws
    var rawRepresentation: Data { get }
    var derRepresentation: Data { get }
}

protocol SigningPublicKeyUnderTest: NISTPublicKeyUnderTest {
    associatedtype Signature: ECDSASignatureUnderTest
    func isValidSignature<D: DataProtocol>(_ signature: Signature, for data: D) -> Bool
    func isValidSignature<D: Digest>(_ signature: Signature, for digest: D) -> Bool
}

protocol SigningPrivateKeyUnderTest: NISTPrivateKeyUnderTest where PublicKey: SigningPublicKeyUnderTest {
    /// The hash CryptoKit pairs with the curve (SHA-256, SHA-384, SHA-512).
    associatedtype CurveHash: HashFunction
    func signature<D: DataProtocol>(for data: D) throws -> PublicKey.Signature
    func signature<D: Digest>(for digest: D) throws -> PublicKey.Signature
}

protocol AgreementPrivateKeyUnderTest: NISTPrivateKeyUnderTest {
    func sharedSecretFromKeyAgreement(with publicKeyShare: PublicKey) throws -> SharedSecret
}

extension P256.Signing.ECDSASignature: ECDSASignatureUnderTest {}
extension P384.Signing.ECDSASignature: ECDSASignatureUnderTest {}
extension P521.Signing.ECDSASignature: ECDSASignatureUnderTest {}
extension P256.Signing.PublicKey: SigningPublicKeyUnderTest {}
extension P384.Signing.PublicKey: SigningPublicKeyUnderTest {}
extension P521.Signing.PublicKey: SigningPublicKeyUnderTest {}
extension P256.Signing.PrivateKey: SigningPrivateKeyUnderTest { typealias CurveHash = SHA256 }
extension P384.Signing.PrivateKey: SigningPrivateKeyUnderTest { typealias CurveHash = SHA384 }
extension P521.Signing.PrivateKey: SigningPrivateKeyUnderTest { typealias CurveHash = SHA512 }
extension P256.KeyAgreement.PublicKey: NISTPublicKeyUnderTest {}
extension P384.KeyAgreement.PublicKey: NISTPublicKeyUnderTest {}
extension P521.KeyAgreement.PublicKey: NISTPublicKeyUnderTest {}
extension P256.KeyAgreement.PrivateKey: AgreementPrivateKeyUnderTest {}
extension P384.KeyAgreement.PrivateKey: AgreementPrivateKeyUnderTest {}
extension P521.KeyAgreement.PrivateKey: AgreementPrivateKeyUnderTest {}

/// A published key pair, its encodings and signatures.
///
/// The keys are RFC 6979's (appendix A.2.5 for P-256, A.2.6 for P-384, A.2.7 for P-521): private scalar x and public
/// point U = xG, with the signatures the RFC prints for the messages "sample" and "test" under the hash CryptoKit uses
/// with each curve (SHA-256, SHA-384, SHA-512; A.2.7 prints the P-521/SHA-512 "sample" signature used here). The PEM
/// documents are the same keys as written by OpenSSL 3 (`openssl ec` for the RFC 5915 / SEC 1 "EC PRIVATE KEY",
/// `openssl pkey` for PKCS#8 "PRIVATE KEY" and the SubjectPublicKeyInfo "PUBLIC KEY"), an encoder independent of
/// the one under test.
struct KnownNISTKey: Sendable {
    let name: String
    let size: Int
    let d: String
    let ux: String
    let uy: String
    /// (message, r, s)
    let signatures: [(String, String, String)]
    let sec1PEM: String
    let pkcs8PEM: String
    let spkiPEM: String

    var x963Public: Data { Data([0x04]) + Data(hex: ux) + Data(hex: uy) }
    var rawPublic: Data { Data(hex: ux) + Data(hex: uy) }
    /// 02 or 03 (the parity of y) and x.
    var compressedPublic: Data { Data([0x02 | (Data(hex: uy).last! & 1)]) + Data(hex: ux) }

    static let p256 = KnownNISTKey(
        name: "P-256", size: 32,
        d: "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
        ux: "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
        uy: "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
        signatures: [
            ("sample", "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
             "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
            ("test", "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
             "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"),
        ],
        sec1PEM: """
            -----BEGIN EC PRIVATE KEY-----
            MHcCAQEEIMmvqdhFunUWa1whV2ex1pNOUMPbNuibEnuKYisSD2choAoGCCqGSM49
            AwEHoUQDQgAEYP7UuiVanTHJYet0xjVtaMBJuJI7Yfps5mliLmDyn7Z5A/4QCLi8
            maQa6elWKLxk8vGyDC1+n1F3o8KU1EYimQ==
            -----END EC PRIVATE KEY-----
            """,
        pkcs8PEM: """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgya+p2EW6dRZrXCFX
            Z7HWk05Qw9s26JsSe4piKxIPZyGhRANCAARg/tS6JVqdMclh63TGNW1owEm4kjth
            +mzmaWIuYPKftnkD/hAIuLyZpBrp6VYovGTy8bIMLX6fUXejwpTURiKZ
            -----END PRIVATE KEY-----
            """,
        spkiPEM: """
            -----BEGIN PUBLIC KEY-----
            MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEYP7UuiVanTHJYet0xjVtaMBJuJI7
            Yfps5mliLmDyn7Z5A/4QCLi8maQa6elWKLxk8vGyDC1+n1F3o8KU1EYimQ==
            -----END PUBLIC KEY-----
            """)

    static let p384 = KnownNISTKey(
        name: "P-384", size: 48,
        d: "6b9d3dad2e1b8c1c05b19875b6659f4de23c3b667bf297ba9aa47740787137d896d5724e4c70a825f872c9ea60d2edf5",
        ux: "ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13",
        uy: "8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720",
        signatures: [
            ("sample", "94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46",
             "99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8"),
            ("test", "8203b63d3c853e8d77227fb377bcf7b7b772e97892a80f36ab775d509d7a5feb0542a7f0812998da8f1dd3ca3cf023db",
             "ddd0760448d42d8a43af45af836fce4de8be06b485e9b61b827c2f13173923e06a739f040649a667bf3b828246baa5a5"),
        ],
        sec1PEM: """
            -----BEGIN EC PRIVATE KEY-----
            MIGkAgEBBDBrnT2tLhuMHAWxmHW2ZZ9N4jw7Znvyl7qapHdAeHE32JbVck5McKgl
            +HLJ6mDS7fWgBwYFK4EEACKhZANiAATsOk5BW04ZpFaGGAKfQn+l2pqLxK6S4C4G
            quUoazAMZN748OqQVYZgZKJUUVSAvBOAFdm3LX1XJE6o75rAxiGJZwilk2f537n1
            TKhLPxydsSiLIxw64NT+c0T9JTMmRyA=
            -----END EC PRIVATE KEY-----
            """,
        pkcs8PEM: """
            -----BEGIN PRIVATE KEY-----
            MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDBrnT2tLhuMHAWxmHW2
            ZZ9N4jw7Znvyl7qapHdAeHE32JbVck5McKgl+HLJ6mDS7fWhZANiAATsOk5BW04Z
            pFaGGAKfQn+l2pqLxK6S4C4GquUoazAMZN748OqQVYZgZKJUUVSAvBOAFdm3LX1X
            JE6o75rAxiGJZwilk2f537n1TKhLPxydsSiLIxw64NT+c0T9JTMmRyA=
            -----END PRIVATE KEY-----
            """,
        spkiPEM: """
            -----BEGIN PUBLIC KEY-----
            MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE7DpOQVtOGaRWhhgCn0J/pdqai8SukuAu
            BqrlKGswDGTe+PDqkFWGYGSiVFFUgLwTgBXZty19VyROqO+awMYhiWcIpZNn+d+5
            9UyoSz8cnbEoiyMcOuDU/nNE/SUzJkcg
            -----END PUBLIC KEY-----
            """)

    static let p521 = KnownNISTKey(
        name: "P-521", size: 66,
        d: "00fad06daa62ba3b25d2fb40133da757205de67f5bb0018fee8c86e1b68c7e75caa896eb32f1f47c70855836a6d16fcc1466f6d8fbec67db89ec0c08b0e996b83538",
        ux: "01894550d0785932e00eaa23b694f213f8c3121f86dc97a04e5a7167db4e5bcd371123d46e45db6b5d5370a7f20fb633155d38ffa16d2bd761dcac474b9a2f5023a4",
        uy: "00493101c962cd4d2fddf782285e64584139c2f91b47f87ff82354d6630f746a28a0db25741b5b34a828008b22acc23f924faafbd4d33f81ea66956dfeaa2bfdfcf5",
        signatures: [
            ("sample",
             "00c328fafcbd79dd77850370c46325d987cb525569fb63c5d3bc53950e6d4c5f174e25a1ee9017b5d450606add152b534931d7d4e8455cc91f9b15bf05ec36e377fa",
             "00617cce7cf5064806c467f678d3b4080d6f1cc50af26ca209417308281b68af282623eaa63e5b5c0723d8b8c37ff0777b1a20f8ccb1dccc43997f1ee0e44da4a67a"),
        ],
        sec1PEM: """
            -----BEGIN EC PRIVATE KEY-----
            MIHcAgEBBEIA+tBtqmK6OyXS+0ATPadXIF3mf1uwAY/ujIbhtox+dcqolusy8fR8
            cIVYNqbRb8wUZvbY++xn24nsDAiw6Za4NTigBwYFK4EEACOhgYkDgYYABAGJRVDQ
            eFky4A6qI7aU8hP4wxIfhtyXoE5acWfbTlvNNxEj1G5F22tdU3Cn8g+2MxVdOP+h
            bSvXYdysR0uaL1AjpABJMQHJYs1NL933giheZFhBOcL5G0f4f/gjVNZjD3RqKKDb
            JXQbWzSoKACLIqzCP5JPqvvU0z+B6maVbf6qK/389Q==
            -----END EC PRIVATE KEY-----
            """,
        pkcs8PEM: """
            -----BEGIN PRIVATE KEY-----
            MIHuAgEAMBAGByqGSM49AgEGBSuBBAAjBIHWMIHTAgEBBEIA+tBtqmK6OyXS+0AT
            PadXIF3mf1uwAY/ujIbhtox+dcqolusy8fR8cIVYNqbRb8wUZvbY++xn24nsDAiw
            6Za4NTihgYkDgYYABAGJRVDQeFky4A6qI7aU8hP4wxIfhtyXoE5acWfbTlvNNxEj
            1G5F22tdU3Cn8g+2MxVdOP+hbSvXYdysR0uaL1AjpABJMQHJYs1NL933giheZFhB
            OcL5G0f4f/gjVNZjD3RqKKDbJXQbWzSoKACLIqzCP5JPqvvU0z+B6maVbf6qK/38
            9Q==
            -----END PRIVATE KEY-----
            """,
        spkiPEM: """
            -----BEGIN PUBLIC KEY-----
            MIGbMBAGByqGSM49AgEGBSuBBAAjA4GGAAQBiUVQ0HhZMuAOqiO2lPIT+MMSH4bc
            l6BOWnFn205bzTcRI9RuRdtrXVNwp/IPtjMVXTj/oW0r12HcrEdLmi9QI6QASTEB
            yWLNTS/d94IoXmRYQTnC+RtH+H/4I1TWYw90aiig2yV0G1s0qCgAiyKswj+ST6r7
            1NM/gepmlW3+qiv9/PU=
            -----END PUBLIC KEY-----
            """)
}

/// The DER inside a PEM document (test-side decoding, independent of the module under test).
func der(ofPEM pem: String) -> Data {
    let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    return Data(base64Encoded: body)!
}
