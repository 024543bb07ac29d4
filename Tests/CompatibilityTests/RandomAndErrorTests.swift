import Foundation
import Security
import XCTest

final class SecRandomTests: XCTestCase {
    func generateToken(length: Int) -> String? {
        var bytes = [UInt8](repeating: 0, count: length)
        let status = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
        guard status == errSecSuccess else { return nil }
        return Data(bytes).base64EncodedString()
    }

    func testRandomBytes() {
        var a = [UInt8](repeating: 0, count: 32)
        var b = [UInt8](repeating: 0, count: 32)
        XCTAssertEqual(SecRandomCopyBytes(kSecRandomDefault, a.count, &a), errSecSuccess)
        XCTAssertEqual(SecRandomCopyBytes(kSecRandomDefault, b.count, &b), errSecSuccess)
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, [UInt8](repeating: 0, count: 32))
        XCTAssertNotNil(generateToken(length: 16))
    }

    func testRandomIntoData() {
        var data = Data(count: 24)
        let result = data.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 24, $0.baseAddress!) }
        XCTAssertEqual(result, errSecSuccess)
        XCTAssertNotEqual(data, Data(count: 24))
    }
}

final class SecCopyErrorMessageStringTests: XCTestCase {
    func message(for status: OSStatus) -> String {
        if let message = SecCopyErrorMessageString(status, nil) as String? { return message }
        return "Unknown error \(status)"
    }

    func testMessages() {
        XCTAssertEqual(message(for: errSecItemNotFound), "The specified item could not be found in the keychain.")
        XCTAssertEqual(message(for: errSecDuplicateItem), "The specified item already exists in the keychain.")
        XCTAssertEqual(message(for: errSecSuccess), "No error.")
        XCTAssertFalse(message(for: 12345).isEmpty)
    }

    func testSwitchOverCommonCodes() {
        func describe(_ status: OSStatus) -> String {
            switch status {
            case errSecSuccess: return "ok"
            case errSecItemNotFound: return "missing"
            case errSecDuplicateItem: return "duplicate"
            case errSecAuthFailed, errSecUserCanceled: return "auth"
            case errSecInteractionNotAllowed: return "locked"
            case errSecMissingEntitlement: return "entitlement"
            case errSecParam, errSecDecode, errSecAllocate, errSecUnimplemented, errSecNotAvailable, errSecIO:
                return "other"
            default: return "unknown"
            }
        }
        XCTAssertEqual(describe(-25300), "missing")
        XCTAssertEqual(describe(-128), "auth")
        XCTAssertEqual(describe(-34018), "entitlement")
        XCTAssertEqual(CFErrorCopyDescription(NSError(domain: "d", code: 1)) as String?, "The operation could not be completed. (d error 1.)")
    }
}
