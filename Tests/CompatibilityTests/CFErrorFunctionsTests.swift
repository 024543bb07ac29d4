import Foundation
import Security
import XCTest

/// Wrapper libraries turn the `CFError` that `SecAccessControlCreateWithFlags` reports into an `NSError`
/// with Core Foundation's accessor functions. This is that conversion, written the tutorial way.
final class CFErrorFunctionsTests: XCTestCase {
    func asNSError(_ cfError: CFError) -> NSError {
        let domain = CFErrorGetDomain(cfError) as String
        let code = CFErrorGetCode(cfError)
        let info = CFErrorCopyUserInfo(cfError) as? [String: Any] ?? [:]
        return NSError(domain: domain, code: code, userInfo: info)
    }

    func testConvertsAccessControlFailure() throws {
        var unmanaged: Unmanaged<CFError>?
        let control = SecAccessControlCreateWithFlags(kCFAllocatorDefault, "not-a-protection-class" as CFTypeRef,
                                                      .userPresence, &unmanaged)
        XCTAssertNil(control)
        let cfError = try XCTUnwrap(unmanaged?.takeRetainedValue())
        let converted = asNSError(cfError)
        XCTAssertEqual(converted.domain, NSOSStatusErrorDomain)
        XCTAssertEqual(converted.code, Int(errSecParam))
        XCTAssertFalse(converted.localizedDescription.isEmpty)
    }

    func testUserInfoAndReasons() {
        let error = NSError(domain: "demo", code: 7, userInfo: [NSLocalizedFailureReasonErrorKey: "locked",
                                                                NSLocalizedRecoverySuggestionErrorKey: "unlock it"])
        let info = CFErrorCopyUserInfo(error) as? [String: Any]
        XCTAssertEqual(info?[NSLocalizedFailureReasonErrorKey] as? String, "locked")
        XCTAssertEqual(CFErrorCopyFailureReason(error) as String?, "locked")
        XCTAssertEqual(CFErrorCopyRecoverySuggestion(error) as String?, "unlock it")
        let bare = NSError(domain: "demo", code: 1)
        XCTAssertEqual((CFErrorCopyUserInfo(bare) as? [String: Any])?.count, 0)
        XCTAssertNil(CFErrorCopyFailureReason(bare) as String?)
        XCTAssertTrue(CFRetain(bare) === bare)
    }
}
