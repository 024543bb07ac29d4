import CryptoKit
import Foundation
import LatchkeyKeychainCore

/// The gate column of an access-controlled row: the item key, wrapped once per alternative of its access control.
///
/// - Format 2 (every row written now): `0x80 | count`, then per alternative the ephemeral X25519 public key and the
///   wrapped item key (each length-prefixed). The wrapping key is `VaultKeys.gateKey` over the class key, the ephemeral
///   key and the alternative's agreements with its domains' sealing keys (`GateAgreement`): sealing needs only the
///   domains' public keys, so adding asks nothing; opening needs the domains' released secrets.
/// - Format 1 (rows of earlier versions, still opened): `count`, then the wrapped keys; the wrapping key is
///   `VaultKeys.gateKey` over the class key and the domains' secrets themselves.
enum VaultGate {
    private static let format2: UInt8 = 0x80

    /// The gate of a new item key for the sealing keys of each alternative.
    static func seal(_ itemKey: SymmetricKey, to sealingKeys: [[Data]], classKey: SymmetricKey, uid: Data,
                     aad: inout RowAAD) throws(KeychainStoreError) -> Data {
        var gate = Data([format2 | UInt8(truncatingIfNeeded: sealingKeys.count)])
        for (index, keys) in sealingKeys.enumerated() {
            var sealing = try GateAgreement.seal(to: keys)
            defer { for i in sealing.agreements.indices { sealing.agreements[i].resetBytes(in: 0..<sealing.agreements[i].count) } }
            let wrap = VaultKeys.gateKey(classKey: classKey, secrets: [sealing.ephemeralKey] + sealing.agreements,
                                         uid: uid, alternative: index)
            let keyBytes = itemKey.withUnsafeBytes { Data($0) }
            AttributeCoding.appendBytes(sealing.ephemeralKey, to: &gate)
            AttributeCoding.appendBytes(try VaultSeal.seal(keyBytes, key: wrap, aad: &aad, part: 0x67), to: &gate)
        }
        return gate
    }

    /// The item key, unwrapped with the released secrets of alternative `alternative`. A wrong secret (another
    /// enrolment for biometryCurrentSet) gives errSecAuthFailed.
    static func open(_ gate: Data, alternative: Int, secrets: [Data], classKey: SymmetricKey, uid: Data,
                     aad: inout RowAAD) throws(KeychainStoreError) -> SymmetricKey {
        var reader = AttributeCoding.Reader(bytes: [UInt8](gate))
        let header = try reader.byte()
        let isFormat2 = header & format2 != 0
        let count = Int(header & ~format2)
        guard alternative < count else { throw KeychainStoreError(.decode, .corruptItem) }
        var ephemeralKey = Data(), wrapped = Data()
        for index in 0...alternative {
            let ephemeral = isFormat2 ? Data(try reader.raw()) : Data()
            let blob = Data(try reader.raw())
            if index == alternative { (ephemeralKey, wrapped) = (ephemeral, blob) }
        }
        var material = secrets
        if isFormat2 { material = [ephemeralKey] + (try GateAgreement.open(ephemeralKey: ephemeralKey, secrets: secrets)) }
        defer { for i in material.indices { material[i].resetBytes(in: 0..<material[i].count) } }
        let wrap = VaultKeys.gateKey(classKey: classKey, secrets: material, uid: uid, alternative: alternative)
        var keyBytes: Data
        do { keyBytes = try VaultSeal.open(wrapped, key: wrap, aad: &aad, part: 0x67) } catch { throw .authFailed }
        defer { keyBytes.resetBytes(in: 0..<keyBytes.count) }
        return SymmetricKey(data: keyBytes)
    }
}
