import Foundation
import LatchkeyCrypto

// Test-only conveniences over CryptoKit's API (which has no `==` on public keys and signatures, and an optional
// `combined` on AES-GCM boxes): comparisons by encoding.

extension P256.Signing.PublicKey: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.x963Representation == rhs.x963Representation }
}

extension P384.Signing.PublicKey: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.x963Representation == rhs.x963Representation }
}

extension Curve25519.Signing.PublicKey: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }
}

extension P256.Signing.ECDSASignature: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }
}

extension AES.GCM.SealedBox {
    /// `combined` for the boxes these tests make (always a 12-byte nonce).
    var bytes: Data { combined ?? Data() }
}

extension ChaChaPoly.SealedBox {
    /// `combined` (named as the AES-GCM helper above, for tests written for both).
    var bytes: Data { combined }
}
