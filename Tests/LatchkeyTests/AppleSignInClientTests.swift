import Foundation
import LatchkeySupport
import Testing
import LatchkeyCrypto
@testable import Latchkey

/// Apple's credential-state answers, scripted.
final class ScriptedCredentialState: AppleCredentialStateProvider {
    let answer: Locked<Result<AppleCredentialState, any Error>>
    let asked = Locked<[String]>([])
    init(_ state: AppleCredentialState) { answer = Locked(.success(state)) }
    func set(_ result: Result<AppleCredentialState, any Error>) { answer.withLock { $0 = result } }
    func credentialState(forUserID userID: String) async throws -> AppleCredentialState {
        asked.withLock { $0.append(userID) }
        return try answer.withLock { $0 }.get()
    }
}

/// Counts sign-outs.
final class Counter: Sendable {
    private let value = Locked<Int>(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

@Suite struct AppleSignInClientTests {
    func make(_ state: AppleCredentialState) -> (AppleSignIn, ScriptedCredentialState, Counter) {
        let provider = ScriptedCredentialState(state)
        let signOuts = Counter()
        let apple = AppleSignIn(keychain: Keychain(service: "test.apple", store: MemoryStore()), stateProvider: provider) {
            signOuts.increment()
        }
        return (apple, provider, signOuts)
    }

    @Test func noncesAreRandomAndHashedAsAppleExpects() {
        let a = AppleSignIn.makeNonce(), b = AppleSignIn.makeNonce()
        #expect(a.raw != b.raw)
        #expect(a.raw.count == 43)
        #expect(a.hashed == SHA256.hash(data: Data(a.raw.utf8)).hexString)
        #expect(a.hashed.count == 64)
        #expect(!a.description.contains(a.raw))
        // A known value: SHA-256("abc").
        #expect(AppleSignInNonce(raw: "abc").hashed == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func keepsTheUserIdentifierWhileAuthorized() async throws {
        let (apple, provider, signOuts) = make(.authorized)
        try apple.didSignIn(userID: "001234.abcdef")
        #expect(await apple.checkCredentialState() == .authorized)
        #expect(try apple.userID() == "001234.abcdef")
        #expect(signOuts.count == 0)
        #expect(provider.asked.withLock { $0 } == ["001234.abcdef"])
    }

    @Test(arguments: [AppleCredentialState.revoked, .notFound])
    func signsOutWhenRevokedOrGone(state: AppleCredentialState) async throws {
        let (apple, _, signOuts) = make(state)
        try apple.didSignIn(userID: "001234.abcdef")
        #expect(await apple.checkCredentialState() == state)
        #expect(try apple.userID() == nil)
        #expect(signOuts.count == 1)
    }

    @Test func offlineIsNotARevocation() async throws {
        let (apple, provider, signOuts) = make(.authorized)
        try apple.didSignIn(userID: "u")
        provider.set(.failure(URLError(.notConnectedToInternet)))
        #expect(await apple.checkCredentialState() == .authorized)
        #expect(try apple.userID() == "u")
        #expect(signOuts.count == 0)
    }

    @Test func revocationNotificationSignsOut() async throws {
        let (apple, provider, signOuts) = make(.authorized)
        try apple.didSignIn(userID: "u")
        await apple.handleCredentialRevoked()
        #expect(try apple.userID() == nil)
        #expect(signOuts.count == 1)
        // Nobody signed in: nothing to ask Apple.
        #expect(await apple.checkCredentialState() == .notFound)
        #expect(provider.asked.withLock { $0 }.isEmpty)
    }
}
