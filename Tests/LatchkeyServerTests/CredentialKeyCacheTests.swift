import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import LatchkeySupport
import LatchkeyWebAuthn
import Testing
@testable import LatchkeyServer

/// The relying party's prepared-key cache (`CredentialKeyCache`): a hit reuses the key built before, a record whose key
/// bytes changed is never verified with the old key, the capacity holds, and concurrent sign-ins are safe. Counts of
/// builds and of cache hits decide, never time.
@Suite(.offCooperativePool) struct CredentialKeyCacheTests {
    /// A P-256 credential: its COSE_Key bytes and a key that signs for it.
    struct Credential {
        let id: Data
        let signer: P256.Signing.PrivateKey
        var publicKey: Data {
            let raw = signer.publicKey.rawRepresentation
            return COSEKey.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32)).encoded
        }

        init(_ number: Int) {
            id = Data([UInt8(number & 0xff), UInt8(number >> 8)] + Array(repeating: 0xc7, count: 14))
            signer = P256.Signing.PrivateKey()
        }

        func verificationKey() throws -> CredentialVerificationKey {
            try CredentialVerificationKey(CredentialPublicKey(encoded: publicKey))
        }
    }

    static let message = Data("signed".utf8)

    /// `cache.key` for `credential`, counting the keys built.
    static func key(_ cache: CredentialKeyCache, _ credential: Credential, publicKey: Data? = nil,
                    builds: Locked<Int>) throws -> CredentialVerificationKey {
        let bytes = publicKey ?? credential.publicKey
        return try cache.key(credentialID: credential.id, publicKey: bytes) { () throws(WebAuthnError) in
            builds.withLock { $0 += 1 }
            return try CredentialVerificationKey(CredentialPublicKey(encoded: bytes))
        }
    }

    @Test func aHitReusesTheKeyBuiltBefore() throws {
        let cache = CredentialKeyCache(capacity: 4)
        let credential = Credential(1), builds = Locked(0)
        let first = try Self.key(cache, credential, builds: builds)
        let second = try Self.key(cache, credential, builds: builds)
        #expect(builds.withLock { $0 } == 1)
        #expect(cache.statistics.count == 1 && cache.statistics.hits == 1 && cache.statistics.misses == 1)
        let signature = try credential.signer.signature(for: Self.message).derRepresentation
        #expect(first.isValidSignature(signature, for: Self.message) && second.isValidSignature(signature, for: Self.message))
    }

    @Test func changedKeyBytesMissAndReplaceTheKey() throws {
        let cache = CredentialKeyCache(capacity: 4)
        let original = Credential(1), builds = Locked(0)
        _ = try Self.key(cache, original, builds: builds)
        // The same credential ID with another key's bytes (a record re-registered or edited).
        let replacement = P256.Signing.PrivateKey()
        let raw = replacement.publicKey.rawRepresentation
        let newBytes = COSEKey.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32)).encoded
        let key = try Self.key(cache, original, publicKey: newBytes, builds: builds)
        #expect(builds.withLock { $0 } == 2)
        #expect(key.isValidSignature(try replacement.signature(for: Self.message).derRepresentation, for: Self.message))
        #expect(!key.isValidSignature(try original.signer.signature(for: Self.message).derRepresentation, for: Self.message))
        // The new key replaced the old one: its bytes hit, the old bytes miss again.
        #expect(cache.contains(credentialID: original.id, publicKey: newBytes))
        #expect(!cache.contains(credentialID: original.id, publicKey: original.publicKey))
        _ = try Self.key(cache, original, publicKey: newBytes, builds: builds)
        #expect(builds.withLock { $0 } == 2 && cache.statistics.count == 1)
        // One byte of difference is enough (the bytes are compared whole, not by prefix or hash).
        var flipped = newBytes
        flipped[flipped.count - 1] ^= 0x01
        #expect(!cache.contains(credentialID: original.id, publicKey: flipped))
    }

    @Test func theCapacityHoldsAndRecentlyUsedKeysStay() throws {
        let cache = CredentialKeyCache(capacity: 3)
        let credentials = (0..<10).map(Credential.init), builds = Locked(0)
        for credential in credentials.prefix(3) { _ = try Self.key(cache, credential, builds: builds) }
        // Credential 0 is used again: the hand passes it over once, and credential 1 goes first.
        _ = try Self.key(cache, credentials[0], builds: builds)
        _ = try Self.key(cache, credentials[3], builds: builds)
        #expect(cache.statistics.count == 3)
        #expect(cache.contains(credentialID: credentials[0].id, publicKey: credentials[0].publicKey))
        #expect(!cache.contains(credentialID: credentials[1].id, publicKey: credentials[1].publicKey))
        #expect(cache.contains(credentialID: credentials[3].id, publicKey: credentials[3].publicKey))
        for credential in credentials {
            _ = try Self.key(cache, credential, builds: builds)
            #expect(cache.statistics.count <= 3)
        }
        #expect(cache.statistics.count == 3)
        // The last three are the ones kept; each still verifies its own signatures.
        for credential in credentials.suffix(3) {
            #expect(cache.contains(credentialID: credential.id, publicKey: credential.publicKey))
        }
        let none = CredentialKeyCache(capacity: 0)
        _ = try Self.key(none, credentials[0], builds: builds)
        _ = try Self.key(none, credentials[0], builds: builds)
        #expect(none.statistics.count == 0 && none.statistics.hits == 0)
    }

    /// Eight threads sign in with sixteen credentials through a cache of four: every key returned is the one for the
    /// bytes asked for, the bound holds, and every lookup is counted once.
    @Test func concurrentUseIsSafe() throws {
        let cache = CredentialKeyCache(capacity: 4)
        let credentials = (0..<16).map(Credential.init)
        let signatures = try credentials.map { try $0.signer.signature(for: Self.message).derRepresentation }
        let builds = Locked(0), wrong = Locked(0), overCapacity = Locked(0)
        let rounds = 40, threads = 8
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                for round in 0..<rounds {
                    let which = (thread * 5 + round * (round % 3 == 0 ? 1 : 7)) % credentials.count
                    guard let key = try? Self.key(cache, credentials[which], builds: builds),
                          key.isValidSignature(signatures[which], for: Self.message),
                          !key.isValidSignature(signatures[(which + 1) % credentials.count], for: Self.message)
                    else { wrong.withLock { $0 += 1 }; continue }
                    if cache.statistics.count > 4 { overCapacity.withLock { $0 += 1 } }
                }
            }.start()
        }
        group.wait()
        #expect(wrong.withLock { $0 } == 0 && overCapacity.withLock { $0 } == 0)
        let statistics = cache.statistics
        #expect(statistics.count == 4)
        #expect(statistics.hits + statistics.misses == rounds * threads)
        #expect(statistics.misses == builds.withLock { $0 })
    }

    // MARK: Through the relying party

    @Test func theRelyingPartyBuildsAKeyOncePerCredential() async throws {
        let f = try PasskeyFixture()
        let stored = try await f.register()
        // Registration built the key (to check it) and kept it: every sign-in after is a hit.
        #expect(f.rp.credentialKeys.contains(credentialID: stored.id, publicKey: stored.publicKey))
        for count in 1...3 {
            _ = try await f.verify(try await f.assertionResponse())
            #expect(f.rp.credentialKeys.statistics.hits == count && f.rp.credentialKeys.statistics.misses == 0)
        }
        // A relying party without the registration (another process) misses once, then hits.
        let other = try WebAuthnRelyingParty(configuration: f.rp.configuration, challenges: f.rp.challenges, now: f.clock.function)
        let table = f.credentials.withLock { $0 }
        for _ in 0..<2 {
            let options = try await other.authenticationOptions()
            let assertion = try f.authenticator.authenticate(options, origin: PasskeyFixture.origin)
            let result = try await other.verifyAuthentication(assertion) { table[$0] }
            #expect(result.userVerified)
        }
        #expect(other.credentialKeys.statistics.misses == 1 && other.credentialKeys.statistics.hits == 1)
    }

    /// A stored record whose key was replaced is verified with its new key, though the old one is cached under the
    /// same credential ID: the old key's signatures no longer verify.
    @Test func aChangedRecordIsNeverVerifiedWithTheCachedKey() async throws {
        let f = try PasskeyFixture()
        let stored = try await f.register()
        _ = try await f.verify(try await f.assertionResponse())
        let other = P256.Signing.PrivateKey().publicKey.rawRepresentation
        var edited = try #require(f.credentials.withLock { $0[stored.id] })
        edited.publicKey = COSEKey.ec2(algorithm: .es256, curve: .p256, x: other.prefix(32), y: other.suffix(32)).encoded
        f.credentials.withLock { $0[stored.id] = edited }
        await #expect(throws: WebAuthnError.signatureInvalid) { try await f.verify(try await f.assertionResponse()) }
        #expect(f.rp.credentialKeys.contains(credentialID: stored.id, publicKey: edited.publicKey))
        #expect(!f.rp.credentialKeys.contains(credentialID: stored.id, publicKey: stored.publicKey))
        // A record that no longer decodes is refused, whatever is cached for its ID.
        edited.publicKey = Data([0xa0])
        f.credentials.withLock { $0[stored.id] = edited }
        await #expect(throws: WebAuthnError.self) { try await f.verify(try await f.assertionResponse()) }
    }

    @Test func theCapacityComesFromTheConfiguration() throws {
        #expect(WebAuthnConfiguration(relyingPartyID: "localhost", relyingPartyName: "x", allowedOrigins: [])
            .credentialKeyCacheCapacity == 1024)
        let f = try PasskeyFixture { $0.credentialKeyCacheCapacity = 7 }
        #expect(f.rp.credentialKeys.capacity == 7)
        let off = try PasskeyFixture { $0.credentialKeyCacheCapacity = -1 }
        #expect(off.rp.credentialKeys.capacity == 0)
    }

    /// A credential key whose point is off its curve cannot verify anything: it is refused at registration (with `none`
    /// attestation too, where no signature is checked) and when a record is made by hand.
    @Test func keysOffTheCurveAreRefusedAtRegistration() async throws {
        let f = try PasskeyFixture { $0.attestation = .none }
        var raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        raw[raw.startIndex + 63] ^= 0x01
        let bytes = COSEKey.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32)).encoded
        let response = try await attestedRegistration(f, keyBytes: bytes) { _, _ in ("none", .map([])) }
        await #expect(throws: WebAuthnError.self) { try await f.rp.verifyRegistration(response) }
        #expect(f.rp.credentialKeys.statistics.count == 0)
        #expect(throws: WebAuthnError.self) {
            try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: bytes, backupEligible: false)
        }
    }
}
