// The app-style library: notes sealed with AES-GCM under HKDF-derived keys, signed with P-256, and a notebook key
// shared by ECDH + X9.63 + AES key wrap.
import CryptoKit
import Foundation
import SealedNotes
import Testing

@Suite("SealedNotes")
struct SealedNotesTests {
    @Test("A note opens for a trusted author and survives JSON")
    func roundTrip() throws {
        let notebook = Notebook()
        let author = P256.Signing.PrivateKey()
        let note = try notebook.seal("Meet at the usual place, 7pm.", author: author)
        #expect(try notebook.open(note, trustedAuthors: [author.publicKey]) == "Meet at the usual place, 7pm.")
        let json = try JSONEncoder().encode(note)
        let decoded = try JSONDecoder().decode(SealedNote.self, from: json)
        #expect(decoded == note)
        #expect(try notebook.open(decoded, trustedAuthors: [P256.Signing.PrivateKey().publicKey, author.publicKey])
                == "Meet at the usual place, 7pm.")
    }

    @Test("Untrusted authors, forged signatures, tampered boxes and the wrong notebook are refused")
    func refusals() throws {
        let notebook = Notebook()
        let author = P256.Signing.PrivateKey(), mallory = P256.Signing.PrivateKey()
        let note = try notebook.seal("pay 10", author: author)
        #expect(throws: SealedNoteError.untrustedAuthor) { try notebook.open(note, trustedAuthors: [mallory.publicKey]) }

        var forged = note
        forged.box[forged.box.count - 1] ^= 1
        #expect(throws: SealedNoteError.badSignature) { try notebook.open(forged, trustedAuthors: [author.publicKey]) }

        // Mallory re-signs a changed box under the author's name: the signature check catches it.
        var resigned = try notebook.seal("pay 1000", author: mallory)
        resigned.author = author.publicKey.x963Representation
        #expect(throws: SealedNoteError.badSignature) { try notebook.open(resigned, trustedAuthors: [author.publicKey]) }

        // A correctly signed note from another notebook does not decrypt here.
        let other = try Notebook().seal("elsewhere", author: author)
        #expect(throws: SealedNoteError.tampered) { try notebook.open(other, trustedAuthors: [author.publicKey]) }

        var future = note
        future.version = 2
        #expect(throws: SealedNoteError.unsupportedVersion(2)) { try notebook.open(future, trustedAuthors: [author.publicKey]) }
    }

    @Test("A notebook shared by invitation opens the same notes")
    func invitation() throws {
        let notebook = Notebook()
        let author = P256.Signing.PrivateKey()
        let note = try notebook.seal("shared secret plans", author: author)
        let reader = P256.KeyAgreement.PrivateKey()
        let envelope = try NotebookInvitation.invite(notebook, reader: reader.publicKey)
        let readersCopy = try NotebookInvitation.accept(envelope, reader: reader)
        #expect(try readersCopy.open(note, trustedAuthors: [author.publicKey]) == "shared secret plans")
        #expect(throws: (any Error).self) { try NotebookInvitation.accept(envelope, reader: P256.KeyAgreement.PrivateKey()) }
    }

    @Test("A wrapped master key restores the notebook")
    func wrapping() throws {
        let master = SymmetricKey(size: .bits256), kek = SymmetricKey(size: .bits256)
        let notebook = Notebook(masterKey: master)
        let author = P256.Signing.PrivateKey()
        let note = try notebook.seal("keep", author: author)
        let restored = try Notebook(wrappedMasterKey: notebook.wrappedMasterKey(using: kek), kek: kek)
        #expect(try restored.open(note, trustedAuthors: [author.publicKey]) == "keep")
    }
}
