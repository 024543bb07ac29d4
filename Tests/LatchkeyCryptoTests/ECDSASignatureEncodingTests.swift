#if !LATCHKEY_APPLE_FRAMEWORKS  // checked against OpenSSL itself, which the Apple build does not link
import COpenSSL
import Foundation
import LatchkeyOpenSSL
import Testing
@testable import LatchkeyCrypto

/// `ECCurve.derSignature(raw:)` writes X9.62 DER itself: it must give OpenSSL's `i2d_ECDSA_SIG` bytes for every
/// r and s, including leading zero bytes, a set high bit, zero and the largest values.
@Suite struct ECDSASignatureEncodingTests {
    /// OpenSSL's encoding of raw r||s (the oracle).
    static func openSSLDER(_ raw: [UInt8], size: Int) throws -> Data {
        let sig = try #require(ECDSA_SIG_new())
        defer { ECDSA_SIG_free(sig) }
        let r = BN_bin2bn(raw, Int32(size), nil)
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + size, Int32(size), nil) }
        #expect(ECDSA_SIG_set0(sig, r, s) == 1)
        let length = i2d_ECDSA_SIG(sig, nil)
        var out = [UInt8](repeating: 0, count: Int(length))
        out.withUnsafeMutableBufferPointer { buf in
            var p = buf.baseAddress
            _ = i2d_ECDSA_SIG(sig, &p)
        }
        return Data(out)
    }

    static func cases(size: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let patterns: [[UInt8]] = [
            [UInt8](repeating: 0, count: size),                         // zero
            [UInt8](repeating: 0, count: size - 1) + [1],               // one
            [UInt8](repeating: 0xff, count: size),                      // largest, high bit set
            [0x80] + [UInt8](repeating: 0, count: size - 1),            // only the high bit
            [0x00, 0x80] + [UInt8](repeating: 0x11, count: size - 2),   // a leading zero, then a high bit
            [0x00, 0x7f] + [UInt8](repeating: 0x22, count: size - 2),   // a leading zero, no high bit
            [0x00, 0x00, 0x00] + [UInt8](repeating: 0x93, count: size - 3),
        ]
        for r in patterns { for s in patterns { out.append(r + s) } }
        for _ in 0..<500 { out.append((0..<(2 * size)).map { _ in UInt8.random(in: 0...255) }) }
        return out
    }

    @Test(arguments: [ECCurve.p256, ECCurve.p384].map(\.size))
    func encodingMatchesOpenSSL(size: Int) throws {
        let curve = size == 32 ? ECCurve.p256 : ECCurve.p384
        for raw in Self.cases(size: size) {
            let ours = try curve.derSignature(raw: Data(raw))
            let theirs = try Self.openSSLDER(raw, size: size)
            #expect(ours == theirs, "r||s \(Data(raw).base64EncodedString())")
        }
    }

    @Test func wrongLengthIsRefused() {
        #expect(throws: CryptoError.self) { try ECCurve.p256.derSignature(raw: Data(count: 63)) }
        #expect(throws: CryptoError.self) { try ECCurve.p384.derSignature(raw: Data(count: 64)) }
    }
}
#endif
