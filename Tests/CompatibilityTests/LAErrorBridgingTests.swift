import Foundation
import LocalAuthentication
import XCTest

/// Biometric managers in tutorials ask `canEvaluatePolicy` for an `NSError` and cast it to `LAError`
/// to pick a message; they also hand a context credentials. Both are written here the usual way.
final class LAErrorBridgingTests: XCTestCase {
    func message(for error: NSError?) -> String {
        guard let laError = error as? LAError else { return "unknown" }
        switch laError.code {
        case .biometryNotAvailable: return "not available"
        case .biometryNotEnrolled: return "not enrolled"
        case .biometryLockout: return "locked out"
        case .passcodeNotSet: return "no passcode"
        default: return "other \(laError.code.rawValue)"
        }
    }

    func testNSErrorCastsBackToLAError() throws {
        let ns: NSError? = LAError(.biometryLockout) as NSError
        XCTAssertEqual(ns?.domain, LAErrorDomain)
        XCTAssertEqual(ns?.code, LAError.Code.biometryLockout.rawValue)
        XCTAssertEqual(message(for: ns), "locked out")
        let asError: Error = try XCTUnwrap(ns)
        XCTAssertEqual((asError as? LAError)?.code, .biometryLockout)
        XCTAssertEqual(message(for: NSError(domain: kLAErrorDomain, code: -7)), "not enrolled")
        XCTAssertEqual(message(for: NSError(domain: "other.domain", code: -7)), "unknown")
        XCTAssertEqual(message(for: NSError(domain: LAErrorDomain, code: 12345)), "unknown")
    }

    func testCanEvaluateErrorCasts() {
        let context = LAContext()
        var error: NSError?
        if !context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
            XCTAssertNotNil(error as? LAError, "the NSError from canEvaluatePolicy must cast to LAError")
        }
    }

    func testCredentials() {
        let context = LAContext()
        XCTAssertFalse(context.isCredentialSet(.applicationPassword))
        XCTAssertTrue(context.setCredential("app secret".data(using: .utf8), type: .applicationPassword))
        XCTAssertTrue(context.isCredentialSet(.applicationPassword))
        XCTAssertFalse(context.isCredentialSet(.smartCardPIN))
        context.setCredential(nil, type: .applicationPassword)
        XCTAssertFalse(context.isCredentialSet(.applicationPassword))
        context.setCredential(Data([1, 2, 3, 4]), type: .smartCardPIN)
        context.invalidate()
        XCTAssertFalse(context.isCredentialSet(.smartCardPIN))
        XCTAssertEqual(LACredentialType.smartCardPIN.rawValue, Int(kLACredentialSmartCardPIN))
        XCTAssertEqual(LACredentialType.applicationPassword.rawValue, Int(kLACredentialTypeApplicationPassword))
    }
}

/// Older code compares error codes with the C constants of LAPublicDefines.h.
final class LAPublicDefinesTests: XCTestCase {
    func describe(_ error: NSError) -> String {
        switch Int32(error.code) {
        case kLAErrorUserCancel: return "cancelled"
        case kLAErrorBiometryLockout: return "locked"
        case kLAErrorNotInteractive: return "no UI"
        default: return "other"
        }
    }

    func testConstantsMatchTheSwiftTypes() {
        XCTAssertEqual(describe(LAError(.userCancel) as NSError), "cancelled")
        XCTAssertEqual(describe(LAError(.biometryLockout) as NSError), "locked")
        XCTAssertEqual(describe(LAError(.notInteractive) as NSError), "no UI")
        let codes: [(Int32, LAError.Code)] = [
            (kLAErrorAuthenticationFailed, .authenticationFailed), (kLAErrorUserFallback, .userFallback),
            (kLAErrorSystemCancel, .systemCancel), (kLAErrorPasscodeNotSet, .passcodeNotSet),
            (kLAErrorTouchIDNotAvailable, .touchIDNotAvailable), (kLAErrorBiometryNotEnrolled, .biometryNotEnrolled),
            (kLAErrorAppCancel, .appCancel), (kLAErrorInvalidContext, .invalidContext),
        ]
        for (constant, code) in codes { XCTAssertEqual(Int(constant), code.rawValue) }
        XCTAssertEqual(Int(kLAPolicyDeviceOwnerAuthentication), LAPolicy.deviceOwnerAuthentication.rawValue)
        XCTAssertEqual(Int(kLAPolicyDeviceOwnerAuthenticationWithBiometrics), LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue)
        XCTAssertEqual(Int(kLAPolicyDeviceOwnerAuthenticationWithWatch), LAPolicy.deviceOwnerAuthenticationWithWatch.rawValue)
        XCTAssertEqual(Int(kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrWatch),
                       LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch.rawValue)
    }
}
