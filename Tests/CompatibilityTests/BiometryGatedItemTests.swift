import Foundation
import LatchkeyAuth
import LocalAuthentication
import Security
import XCTest

/// Tutorial-style biometry-protected keychain items.
final class BiometryGatedItemTests: XCTestCase {
    var simulator: SimulatedAuthenticator!

    override func setUpWithError() throws {
        TestEnvironment.useMemoryKeychain()
        simulator = try TestEnvironment.useSimulator()
    }

    func saveProtected(_ secret: String, account: String, context: LAContext? = nil) -> OSStatus {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
                                                           kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                           .biometryCurrentSet, &error) else {
            return errSecParam
        }
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "bio",
            kSecAttrAccount as String: account,
            kSecAttrAccessControl as String: access,
            kSecValueData as String: secret.data(using: .utf8)!,
        ]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        return SecItemAdd(query as CFDictionary, nil)
    }

    func readProtected(account: String, context: LAContext) -> (OSStatus, String?) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "bio",
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne,
            kSecUseAuthenticationContext as String: context,
            kSecUseOperationPrompt as String: "Read your secret",
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).flatMap { String(data: $0, encoding: .utf8) })
    }

    func evaluatedContext() async throws -> LAContext {
        let context = LAContext()
        let ok = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
        XCTAssertTrue(ok)
        return context
    }

    func testAccessControlFlagsAndHashable() {
        XCTAssertEqual(SecAccessControlCreateFlags.biometryCurrentSet.rawValue, 8)
        XCTAssertEqual(SecAccessControlCreateFlags.applicationPassword.rawValue, 1 << 31)
        let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
        let b = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
        XCTAssertNotNil(a)
        XCTAssertEqual(a, b)
        var error: Unmanaged<CFError>?
        XCTAssertNil(SecAccessControlCreateWithFlags(nil, "bogus" as CFString, .userPresence, &error))
        let nsError = error!.takeRetainedValue() as Error as NSError
        XCTAssertEqual(nsError.code, Int(errSecParam))
    }

    func testReadWithEvaluatedContext() async throws {
        let context = try await evaluatedContext()
        XCTAssertEqual(saveProtected("bio-secret", account: "a", context: context), errSecSuccess)
        let reader = try await evaluatedContext()
        let (status, value) = readProtected(account: "a", context: reader)
        XCTAssertEqual(status, errSecSuccess)
        XCTAssertEqual(value, "bio-secret")
    }

    func testAddWithoutContextAsksNothingThenReadNeedsEvaluation() async throws {
        try simulator.setDefaultOutcome(.cancel)  // a scan while adding would cancel the add
        XCTAssertEqual(saveProtected("p", account: "b"), errSecSuccess)  // sealed to the domain's key: no prompt
        try simulator.setDefaultOutcome(.match)
        let notEvaluated = LAContext()
        notEvaluated.interactionNotAllowed = true
        XCTAssertEqual(readProtected(account: "b", context: notEvaluated).0, errSecInteractionNotAllowed)
        let evaluated = try await evaluatedContext()
        XCTAssertEqual(readProtected(account: "b", context: evaluated).1, "p")
    }

    func testCancelledPromptIsUserCanceled() throws {
        XCTAssertEqual(saveProtected("p", account: "c"), errSecSuccess)
        try simulator.enqueue(.cancel)
        XCTAssertEqual(readProtected(account: "c", context: LAContext()).0, errSecUserCanceled)
    }

    func testReEnrolmentMakesItemUnreadable() async throws {
        let context = try await evaluatedContext()
        XCTAssertEqual(saveProtected("gone", account: "d", context: context), errSecSuccess)
        let before = context.evaluatedPolicyDomainState
        try simulator.enroll()  // a new face: biometryCurrentSet items die
        let after = try await evaluatedContext()
        XCTAssertNotEqual(before, after.evaluatedPolicyDomainState)
        let (status, value) = readProtected(account: "d", context: after)
        XCTAssertEqual(status, errSecAuthFailed)
        XCTAssertNil(value)
    }

    func testAttributesReadableWithoutAuthentication() async throws {
        let context = try await evaluatedContext()
        XCTAssertEqual(saveProtected("x", account: "e", context: context), errSecSuccess)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "bio",
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        let items = result as! [[String: Any]]
        XCTAssertEqual(items.first?[kSecAttrAccount as String] as? String, "e")
        XCTAssertNotNil(items.first?[kSecAttrAccessControl as String] as? SecAccessControl)
    }

    func testEvaluateAccessControlThenRead() async throws {
        XCTAssertEqual(saveProtected("ac", account: "f"), errSecSuccess)
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                     .biometryCurrentSet, nil)!
        let context = LAContext()
        context.interactionNotAllowed = false
        let ok = try await context.evaluateAccessControl(access, operation: .useItem, localizedReason: "Read")
        XCTAssertTrue(ok)
        context.interactionNotAllowed = true  // the read must not need another prompt
        XCTAssertEqual(readProtected(account: "f", context: context).1, "ac")
    }
}
