import CryptoKit
import Foundation

/// A note sealed for storage or transfer: AES-GCM under a key derived (HKDF-SHA256) from the notebook's master key
/// and a per-note salt, signed by its author with P-256 ECDSA over everything a reader relies on.
public struct SealedNote: Codable, Equatable, Sendable {
    /// Format version; a reader refuses versions it does not know.
    public var version: Int
    /// Random per-note HKDF salt (16 bytes).
    public var salt: Data
    /// `AES.GCM.SealedBox.combined`: nonce, ciphertext and tag.
    public var box: Data
    /// The author's P-256 signing key (x9.63 representation).
    public var author: Data
    /// DER ECDSA signature over `signedBytes`.
    public var signature: Data

    static let currentVersion = 1
    static let saltByteCount = 16

    /// The bytes the author signs: a domain label, the version, the salt and the sealed box, length-prefixed.
    var signedBytes: Data {
        var bytes = Data("SealedNote/v1".utf8)
        withUnsafeBytes(of: UInt32(version).bigEndian) { bytes.append(contentsOf: $0) }
        for part in [salt, box, author] {
            withUnsafeBytes(of: UInt32(part.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(part)
        }
        return bytes
    }
}

/// Why a note could not be opened.
public enum SealedNoteError: Error, Equatable {
    case unsupportedVersion(Int)
    case malformed
    case untrustedAuthor
    case badSignature
    case tampered
}

/// A notebook: one master key shared by its readers; every note is signed by its author. Not `Sendable`: CryptoKit's
/// `SymmetricKey` is Sendable only from the iOS 18.4 SDK on, and this package builds with Xcode 16.0's.
public struct Notebook {
    private let masterKey: SymmetricKey

    /// A notebook over `masterKey` (256 bits recommended).
    public init(masterKey: SymmetricKey) { self.masterKey = masterKey }

    /// A new notebook with a random master key.
    public init() { masterKey = SymmetricKey(size: .bits256) }

    /// The master key, wrapped (RFC 3394) under a key-encryption key for storage.
    public func wrappedMasterKey(using kek: SymmetricKey) throws -> Data {
        try AES.KeyWrap.wrap(masterKey, using: kek)
    }

    /// A notebook whose master key was wrapped with `wrappedMasterKey(using:)`.
    public init(wrappedMasterKey: Data, kek: SymmetricKey) throws {
        masterKey = try AES.KeyWrap.unwrap(wrappedMasterKey, using: kek)
    }

    /// The per-note key: HKDF-SHA256 over the master key with the note's salt and a fixed context.
    func noteKey(salt: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey, salt: salt, info: Data("SealedNotes note key".utf8),
                               outputByteCount: 32)
    }

    /// Seals `text` as a note by `author`.
    public func seal(_ text: String, author: P256.Signing.PrivateKey) throws -> SealedNote {
        let salt = Data((0..<SealedNote.saltByteCount).map { _ in UInt8.random(in: 0...255) })
        let authorKey = author.publicKey.x963Representation
        let aad = Self.associatedData(version: SealedNote.currentVersion, author: authorKey)
        let sealed = try AES.GCM.seal(Data(text.utf8), using: noteKey(salt: salt), authenticating: aad)
        guard let combined = sealed.combined else { throw SealedNoteError.malformed }
        var note = SealedNote(version: SealedNote.currentVersion, salt: salt, box: combined, author: authorKey,
                              signature: Data())
        note.signature = try author.signature(for: note.signedBytes).derRepresentation
        return note
    }

    /// Opens `note`, checking that one of `trustedAuthors` signed it and that nothing was changed.
    public func open(_ note: SealedNote, trustedAuthors: [P256.Signing.PublicKey]) throws -> String {
        guard note.version == SealedNote.currentVersion else { throw SealedNoteError.unsupportedVersion(note.version) }
        guard trustedAuthors.contains(where: { $0.x963Representation == note.author }) else {
            throw SealedNoteError.untrustedAuthor
        }
        let author = try P256.Signing.PublicKey(x963Representation: note.author)
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: note.signature),
              author.isValidSignature(signature, for: note.signedBytes)
        else { throw SealedNoteError.badSignature }
        guard let box = try? AES.GCM.SealedBox(combined: note.box) else { throw SealedNoteError.malformed }
        let aad = Self.associatedData(version: note.version, author: note.author)
        do {
            let plaintext = try AES.GCM.open(box, using: noteKey(salt: note.salt), authenticating: aad)
            guard let text = String(data: plaintext, encoding: .utf8) else { throw SealedNoteError.malformed }
            return text
        } catch CryptoKitError.authenticationFailure {
            throw SealedNoteError.tampered
        }
    }

    private static func associatedData(version: Int, author: Data) -> Data {
        var aad = Data("SealedNote/v\(version)".utf8)
        aad.append(author)
        return aad
    }
}

/// Sharing a notebook's master key with a new reader: an ephemeral-static P-256 ECDH, X9.63 KDF (SHA-256) to a
/// key-encryption key, and AES key wrap of the master key.
public enum NotebookInvitation {
    /// What the inviter sends: its ephemeral public key and the wrapped master key.
    public struct Envelope: Codable, Equatable, Sendable {
        public var ephemeralPublicKey: Data
        public var wrappedKey: Data
    }

    static let sharedInfo = Data("SealedNotes invitation".utf8)

    /// Wraps `notebook`'s master key for the reader whose key-agreement public key is `reader`.
    public static func invite(_ notebook: Notebook, reader: P256.KeyAgreement.PublicKey) throws -> Envelope {
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let kek = try ephemeral.sharedSecretFromKeyAgreement(with: reader)
            .x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: 32)
        return Envelope(ephemeralPublicKey: ephemeral.publicKey.derRepresentation,
                        wrappedKey: try notebook.wrappedMasterKey(using: kek))
    }

    /// The notebook an invitation carries, opened with the reader's key-agreement private key.
    public static func accept(_ envelope: Envelope, reader: P256.KeyAgreement.PrivateKey) throws -> Notebook {
        let ephemeral = try P256.KeyAgreement.PublicKey(derRepresentation: envelope.ephemeralPublicKey)
        let kek = try reader.sharedSecretFromKeyAgreement(with: ephemeral)
            .x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: 32)
        return try Notebook(wrappedMasterKey: envelope.wrappedKey, kek: kek)
    }
}
