import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import LatchkeyTPM
import LocalAuthentication
import Security
import Testing

/// A Secure Enclave `SecKey`'s access control, gated as CryptoKit's `SecureEnclave` keys are (one mechanism): reading
/// the item never asks, each use does — once per evaluated `LAContext`, which is reused without a second prompt.
@Suite(.offCooperativePool) struct SecKeySecureEnclaveAccessControlTests {
    static let message = Data("POST /v1/transfer".utf8)


    @Test func userPresenceKeyAsksAtUseAndAnEvaluatedContextAsksOnce() async throws {
        try await KeychainOnTPM.run { keychain in
            let device = keychain.device
            let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.presence".utf8))
            // Made with a context evaluated once (the only prompt scripted here: another one fails).
            try device.matchOnce()
            let context = device.context()
            var error: Unmanaged<CFError>?
            let access = try TestDevice.access([.privateKeyUsage, .userPresence])
            #expect(try Self.evaluate(context, access))
            try stored.create(flags: [.privateKeyUsage, .userPresence], context: context)

            // Reading the item asks nothing, even where no prompt may be shown.
            let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: stored.tag,
                                        kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
                                        kSecReturnRef as String: true]
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)

            // With the evaluated context: signs (three times) without a prompt.
            let key = try stored.load(context: context, prompt: "Approve the transfer")
            for _ in 0..<3 {
                #expect(try SecureEnclaveKeychainKey.verify(try SecureEnclaveKeychainKey.sign(Self.message, with: key),
                                                            of: Self.message, by: key))
            }
            // Without: the use asks, and a prompt nobody answers is the LocalAuthentication error, no signature.
            let fresh = try stored.load()
            #expect(SecKeyCreateSignature(fresh, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, &error) == nil)
            #expect(nsError(error)?.domain == LAErrorDomain)
            // Answered, it signs.
            try device.matchOnce()
            #expect(SecKeyCreateSignature(fresh, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, nil) != nil)
        }
    }

    /// `.biometryCurrentSet` dies when the enrolled biometry changes (errSecAuthFailed); `.biometryAny` survives.
    @Test(arguments: [(SecAccessControlCreateFlags.biometryCurrentSet, false), (.biometryAny, true)])
    func reEnrolment(_ constraint: SecAccessControlCreateFlags, survives: Bool) async throws {
        try await KeychainOnTPM.run { keychain in
            let device = keychain.device
            let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.biometry".utf8))
            let before = device.context()
            try device.matchOnce()
            #expect(try Self.evaluate(before, try TestDevice.access([.privateKeyUsage, constraint])))
            try stored.create(flags: [.privateKeyUsage, constraint], context: before)
            _ = try SecureEnclaveKeychainKey.sign(Self.message, with: try stored.load(context: before))

            try device.simulator.enroll()  // another face: the enrolled set changed
            let after = device.context()
            try device.matchOnce()
            #expect(try Self.evaluate(after, try TestDevice.access([.privateKeyUsage, constraint])))
            var error: Unmanaged<CFError>?
            let signature = SecKeyCreateSignature(try stored.load(context: after), .ecdsaSignatureMessageX962SHA256,
                                                  Self.message as CFData, &error)
            if survives {
                #expect(signature != nil)
            } else {
                #expect(signature == nil)
                let failure = nsError(error)
                #expect(failure?.domain == NSOSStatusErrorDomain && failure?.code == Int(errSecAuthFailed))
            }
        }
    }

    /// `.devicePasscode` asks for the passcode, never biometry (none is scripted here), for key agreement too.
    @Test func devicePasscodeKeyAgrees() async throws {
        try await KeychainOnTPM.run { keychain in
            let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.passcode".utf8))
            let context = keychain.device.context()  // its passcode prompts answer "1234"
            try stored.create(flags: [.privateKeyUsage, .devicePasscode], context: context)
            let key = try stored.load(context: context)
            let peer = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                                                          kSecAttrKeySizeInBits: 256] as NSDictionary, nil))
            let ours = SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, try #require(SecKeyCopyPublicKey(peer)),
                                                   [:] as CFDictionary, nil) as Data?
            let theirs = SecKeyCopyKeyExchangeResult(peer, .ecdhKeyExchangeStandard, try #require(SecKeyCopyPublicKey(key)),
                                                     [:] as CFDictionary, nil) as Data?
            #expect(ours != nil && ours?.count == 32 && ours == theirs)
        }
    }

    /// Constraints without `.privateKeyUsage` guard only decryption in Apple's access control, so the key cannot sign
    /// or agree (errSecAuthFailed); with no flags at all it is used freely.
    @Test func privateKeyUsageIsRequiredForConstrainedUse() async throws {
        try await KeychainOnTPM.run { keychain in
            let context = keychain.device.context()
            let constrained = SecureEnclaveKeychainKey(tag: Data("com.example.keys.no-usage".utf8))
            try constrained.create(flags: [.devicePasscode], context: context)
            let key = try constrained.load(context: context)
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, &error) == nil)
            #expect(nsError(error)?.code == Int(errSecAuthFailed))
            #expect(SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, try #require(SecKeyCopyPublicKey(key)),
                                                [:] as CFDictionary, &error) == nil)
            #expect(nsError(error)?.code == Int(errSecAuthFailed))

            let free = SecureEnclaveKeychainKey(tag: Data("com.example.keys.no-flags".utf8))
            let unconstrained = try free.create(flags: [])
            #expect(SecKeyCreateSignature(unconstrained, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, nil) != nil)
        }
    }

    /// `LAContext.evaluateAccessControl` for using a key, awaited from the test's thread.
    static func evaluate(_ context: LAContext, _ access: SecAccessControl) throws -> Bool {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<(Bool, (any Error)?)>((false, nil))
        context.evaluateAccessControl(access, operation: .useKeySign, localizedReason: "Sign") { ok, error in
            outcome.withLock { $0 = (ok, error) }
            done.signal()
        }
        done.wait()
        let (ok, error) = outcome.withLock { $0 }
        if let error { throw error }
        return ok
    }
}
