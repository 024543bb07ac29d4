import Foundation
import LatchkeySupport

/// DER conversions between the forms RSA keys travel in — SubjectPublicKeyInfo and PKCS#8 (X.509, JOSE, PEM files)
/// — and PKCS#1, Security's external representation of RSA keys (RFC 8017 appendix A.1). Portable: the Apple
/// backend needs them, and the Linux tests check them against OpenSSL.
enum RSAKeyDER {
    /// `rsaEncryption` (1.2.840.113549.1.1.1) with NULL parameters.
    static let algorithmIdentifier: [UInt8] = [0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01,
                                               0x01, 0x05, 0x00]

    /// PKCS#1 `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`.
    static func pkcs1PublicKey(modulus: Data, exponent: Data) -> Data {
        sequence(integer(modulus) + integer(exponent))
    }

    /// The modulus and exponent of a PKCS#1 `RSAPublicKey` (big-endian, without leading zeros).
    static func publicParts(pkcs1 der: Data) throws(CryptoError) -> (modulus: Data, exponent: Data) {
        let key = try DERReader.parse(der)
        guard key.isUniversal(DERElement.sequence), key.children.count == 2,
              let n = unsignedInteger(key.children[0]), let e = unsignedInteger(key.children[1])
        else { throw .malformedInput("RSAPublicKey") }
        return (n, e)
    }

    /// PKCS#1 `RSAPublicKey` DER from SubjectPublicKeyInfo (rsaEncryption) or from PKCS#1 itself.
    static func pkcs1PublicKey(fromSPKIOrPKCS1 der: Data) throws(CryptoError) -> Data {
        let outer = try DERReader.parse(der)
        guard outer.isUniversal(DERElement.sequence), outer.children.count == 2 else { throw .malformedInput("RSA public key") }
        if outer.children[0].isUniversal(DERElement.integer) { return der }
        guard outer.children[0].isUniversal(DERElement.sequence), outer.children[0].children.first?.contents
                == Data(algorithmIdentifier[4..<13]),
              outer.children[1].isUniversal(3), outer.children[1].contents.first == 0
        else { throw .unsupportedAlgorithm("not an RSA SubjectPublicKeyInfo") }
        return Data(outer.children[1].contents.dropFirst())
    }

    /// PKCS#1 `RSAPrivateKey` DER from PKCS#8 `PrivateKeyInfo` (rsaEncryption) or from PKCS#1 itself.
    static func pkcs1PrivateKey(fromPKCS8OrPKCS1 der: Data) throws(CryptoError) -> Data {
        let outer = try DERReader.parse(der)
        guard outer.isUniversal(DERElement.sequence), outer.children.count >= 3 else { throw .malformedInput("RSA private key") }
        if outer.children.count >= 9 { return der }  // RSAPrivateKey: version, n, e, d, p, q, dp, dq, qinv
        guard outer.children[1].isUniversal(DERElement.sequence),
              outer.children[1].children.first?.contents == Data(algorithmIdentifier[4..<13]),
              let inner = outer.children[2].octetStringValue
        else { throw .unsupportedAlgorithm("not an RSA PrivateKeyInfo") }
        return inner
    }

    /// SubjectPublicKeyInfo around a PKCS#1 `RSAPublicKey`.
    static func spki(pkcs1: Data) -> Data {
        sequence(Data(algorithmIdentifier) + tagged(0x03, Data([0]) + pkcs1))
    }

    /// PKCS#8 `PrivateKeyInfo` (version 0) around a PKCS#1 `RSAPrivateKey`.
    static func pkcs8(pkcs1: Data) -> Data {
        sequence(Data([0x02, 0x01, 0x00]) + Data(algorithmIdentifier) + tagged(0x04, pkcs1))
    }

    private static func unsignedInteger(_ element: DERElement) -> Data? {
        guard element.isUniversal(DERElement.integer), let first = element.contents.first, first & 0x80 == 0 else { return nil }
        let trimmed = Data(element.contents.drop { $0 == 0 })
        return trimmed.isEmpty ? Data([0]) : trimmed
    }

    private static func integer(_ unsigned: Data) -> Data { DERWriter.integer(unsigned: unsigned) }
    private static func sequence(_ contents: Data) -> Data { DERWriter.sequence(contents) }
    private static func tagged(_ tag: UInt8, _ contents: Data) -> Data { DERWriter.tlv(tag, contents) }
}
