import Foundation
import LatchkeyTestSupport
import LatchkeyAuthCore
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication
import Security
import Testing

/// The four reports of issue 27, each as the probe that found it, on every store where the table says it applies.
extension KeychainConformance {
    @Suite struct Reports {
        /// Migration code reads items by reference alone; a synchronizable item must not be skipped.
        @Test(arguments: StoreKind.available) func synchronizableItemReadBackByItsPersistentReferenceAlone(store: StoreKind) async throws {
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                let (added, reference) = facade.addReturning(["class": "genp", "svce": "migrate", "acct": "me", "agrp": facade.group,
                                                              "sync": true, "v_Data": Data("synced".utf8), "r_PersistentRef": true])
                try #require(added == errSecSuccess)
                let ref = try #require(reference as? Data)
                let (found, data) = facade.copy(["v_PersistentRef": ref, "r_Data": true])
                #expect(found == errSecSuccess, "\(statusName(found))")
                #expect(data as? Data == Data("synced".utf8))
                #expect(facade.update(["v_PersistentRef": ref], ["v_Data": Data("moved".utf8)]) == errSecSuccess)
                #expect(facade.delete(["v_PersistentRef": ref]) == errSecSuccess)
                #expect(facade.copy(["v_PersistentRef": ref, "r_Data": true]).0 == errSecItemNotFound)
            }
        }

        /// `.devicePasscode` needs the passcode: a biometric match does not release it, the passcode does.
        @Test(arguments: StoreKind.available.filter { $0 != .secretService })
        func devicePasscodeItemRefusedAfterBiometricMatchReleasedByThePasscode(store: StoreKind) async throws {
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil))
                let biometric = try facade.context(biometry: true, passcode: false)
                // Adding asks for the passcode (difference 5), never for biometry: every scan would now fail.
                try facade.simulator.setDefaultOutcome(.noMatch)
                #expect(facade.add(["class": "genp", "svce": "pin", "agrp": facade.group, "accc": control,
                                    "v_Data": Data("1111".utf8)]) == errSecSuccess)
                let read: [String: Any] = ["class": "genp", "svce": "pin", "agrp": facade.group, "r_Data": true]
                var query = read
                query["u_AuthCtx"] = biometric
                query["u_AuthUI"] = "u_AuthUIF"
                #expect(facade.copy(query).0 == errSecInteractionNotAllowed, "a biometric match does not release a passcode item")
                // Evaluated for this item, the same context asks for the passcode — never for a face — and then opens it.
                try facade.simulator.setDefaultOutcome(nil) // a biometric prompt would now time out (systemCancel)
                query["u_AuthUI"] = nil
                let (status, data) = facade.copy(query)
                #expect(status == errSecSuccess && data as? Data == Data("1111".utf8), "\(statusName(status))")
                #expect(try facade.simulator.sensor().failedAttempts == 0)
            }
        }

        /// An `.applicationPassword` item opens only with its password — set with `setCredential` or typed at the
        /// prompt — even while the store itself is open (an unlocked vault).
        @Test(arguments: StoreKind.available)
        func applicationPasswordItemReadableOnlyWithTheRightPassword(store: StoreKind) async throws {
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .applicationPassword, nil))
                let writer = LAContext()
                #expect(writer.setCredential(Data("correct horse".utf8), type: .applicationPassword))
                #expect(facade.add(["class": "genp", "svce": "vault-note", "agrp": facade.group, "accc": control,
                                    "v_Data": Data("the note".utf8), "u_AuthCtx": writer]) == errSecSuccess)
                let read: [String: Any] = ["class": "genp", "svce": "vault-note", "agrp": facade.group, "r_Data": true]
                func attempt(_ password: String?, ui: String = "u_AuthUIF") -> (OSStatus, AnyObject?) {
                    let context = LAContext()
                    if let password { context.setCredential(Data(password.utf8), type: .applicationPassword) }
                    var query = read
                    query["u_AuthCtx"] = context
                    query["u_AuthUI"] = ui
                    return facade.copy(query)
                }
                #expect(attempt(nil).0 == errSecInteractionNotAllowed, "no password, no prompt")
                #expect(attempt("battery staple").0 == errSecAuthFailed, "wrong password")
                let (status, data) = attempt("correct horse")
                #expect(status == errSecSuccess && data as? Data == Data("the note".utf8))
                // Asked for by the prompt provider when no credential is set.
                facade.prompts.appPassword = "correct horse"
                let prompted = facade.copy(read)
                #expect(prompted.0 == errSecSuccess && prompted.1 as? Data == Data("the note".utf8))
                facade.prompts.appPassword = "guess"
                #expect(facade.copy(read).0 == errSecAuthFailed)
                // The store below the facade: open, yet the value is sealed.
                var direct = ItemQuery.genericPassword(service: "vault-note", accessGroup: facade.group)
                direct.returnData = true
                #expect(throws: KeychainStoreError.self) { _ = try facade.store.copyMatching(direct) }
                let raw = DeviceOwnerContext(device: UnusableDevice())
                _ = raw.setCredential(Passcode("correct horse"), type: .applicationPassword)
                direct.authenticationContext = raw
                #expect(try facade.store.copyMatching(direct).first?.data == Data("the note".utf8))
                if let vault = facade.store as? FileVault {
                    #expect(!vault.isLocked, "the vault is unlocked, and the item still needed its password")
                    let bytes = try Data(contentsOf: vault.url) + ((try? Data(contentsOf: URL(fileURLWithPath: vault.url.path + "-wal"))) ?? Data())
                    #expect(bytes.range(of: Data("the note".utf8)) == nil)
                }
                // Changing the value needs the password too; dropping the flag opens the value with it.
                let unprotected = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil))
                let keeper = LAContext()
                keeper.setCredential(Data("correct horse".utf8), type: .applicationPassword)
                var change = read
                change["r_Data"] = nil
                change["u_AuthCtx"] = keeper
                #expect(facade.update(change, ["accc": unprotected]) == errSecSuccess)
                #expect(attempt(nil).1 as? Data == Data("the note".utf8), "no password needed any more")
            }
        }

        /// iOS takes `kSecAttrCreator` (and `kSecAttrType`) as a string and returns the string.
        @Test(arguments: StoreKind.available) func creatorGivenAsAStringRoundTrips(store: StoreKind) async throws {
            try await onThread {
                let facade = try Facade(store)
                defer { facade.cleanUp() }
                #expect(facade.add(["class": "genp", "svce": "creator", "agrp": facade.group, "crtr": "aCrt", "type": "note",
                                    "v_Data": Data("x".utf8)]) == errSecSuccess)
                let attributes = facade.attributes(["class": "genp", "svce": "creator", "agrp": facade.group])
                #expect(attributes?["crtr"] as? String == "aCrt" && attributes?["type"] as? String == "note")
                #expect(facade.copy(["class": "genp", "agrp": facade.group, "crtr": "aCrt"]).0 == errSecSuccess)
                // A decimal string is a number, as copyNumber makes it.
                #expect(facade.update(["class": "genp", "svce": "creator", "agrp": facade.group], ["crtr": "1234"]) == errSecSuccess)
                let number = facade.attributes(["class": "genp", "svce": "creator", "agrp": facade.group])?["crtr"]
                #expect((number as? NSNumber)?.intValue == 1234 && !(number is String))
                #expect(facade.copy(["class": "genp", "agrp": facade.group, "crtr": 1234]).0 == errSecSuccess)
            }
        }
    }
}

/// A device that cannot authenticate: the contexts made on it can only hold credentials.
struct UnusableDevice: AuthenticationDevice {
    func status() throws(AuthenticationError) -> DeviceStatus { throw .biometryNotAvailable }
    func scanBiometry(_ prompt: AuthenticationPrompt) async throws(AuthenticationError) -> BiometricScanOutcome { throw .biometryNotAvailable }
    func verifyPasscode(_ prompt: AuthenticationPrompt, provider: (any PasscodeProvider)?) async throws(AuthenticationError) {
        throw .passcodeNotSet
    }
    func recordBiometricFailure() throws(AuthenticationError) -> Int { throw .biometryNotAvailable }
    func recordSuccess(_ method: AuthenticationMethod) throws(AuthenticationError) { throw .biometryNotAvailable }
    func secret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data { throw .authenticationFailed }
}
