import Foundation
import LatchkeyAuth
import LocalAuthentication
import XCTest

final class BiometricManagerTests: XCTestCase {
    var simulator: SimulatedAuthenticator!
    let manager = BiometricManager()

    override func setUpWithError() throws {
        simulator = try TestEnvironment.useSimulator()
    }

    func testBiometryTypeAndCanEvaluate() throws {
        XCTAssertEqual(manager.biometricType(), .faceID)
        XCTAssertNoThrow(try manager.canAuthenticate().get())
        try simulator.setBiometryType(.touchID)
        XCTAssertEqual(manager.biometricType(), .touchID)
    }

    func testNotEnrolledMapsThroughNSError() throws {
        try simulator.unenroll()
        XCTAssertEqual(manager.canAuthenticate(), .failure(.notEnrolled))
        let context = LAContext()
        var error: NSError?
        XCTAssertFalse(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        XCTAssertEqual(error?.domain, LAErrorDomain)
        XCTAssertEqual(error?.domain, "com.apple.LocalAuthentication")
        XCTAssertEqual(error?.code, LAError.biometryNotEnrolled.rawValue)
        XCTAssertEqual(LAError.Code(rawValue: error!.code), .biometryNotEnrolled)
    }

    func testNoSensorIsNotAvailable() throws {
        try simulator.setBiometryType(.none)
        XCTAssertEqual(manager.canAuthenticate(), .failure(.notAvailable))
        XCTAssertEqual(manager.biometricType(), .none)
    }

    func testReplyClosureSuccess() throws {
        let done = expectation(description: "reply")
        var outcome: Result<Bool, BiometricError>?
        manager.authenticate(reason: "Unlock") { result in
            outcome = result
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertNoThrow(try outcome?.get())
    }

    func testReplyClosureCancel() throws {
        try simulator.enqueue(.cancel)
        let done = expectation(description: "reply")
        var outcome: Result<Bool, BiometricError>?
        manager.authenticate(reason: "Unlock") { result in
            outcome = result
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome, .failure(.userCancelled))
    }

    func testAsyncFormAndLAErrorCatch() async throws {
        let first = await manager.authenticate(reason: "Unlock")
        XCTAssertNoThrow(try first.get())
        try simulator.enqueue(.cancel)
        let context = LAContext()
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Pay")
            XCTFail("expected a cancel")
        } catch let error as LAError {
            XCTAssertEqual(error.code, .userCancel)
            XCTAssertTrue(error.code == .userCancel)
            XCTAssertEqual(manager.describe(error), "cancelled")
            XCTAssertEqual((error as NSError).domain, LAErrorDomain)
            XCTAssertEqual((error as NSError).code, -2)
        }
    }

    func testLockoutAfterFiveFailures() async throws {
        try simulator.enqueue(.noMatch, .noMatch, .noMatch, .noMatch, .noMatch)
        var last: BiometricError?
        for _ in 0..<5 {
            if case let .failure(e) = await manager.authenticate(reason: "Try") { last = e }
        }
        XCTAssertNotNil(last)
        XCTAssertEqual(manager.canAuthenticate(), .failure(.lockedOut))
        var error: NSError?
        _ = LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
        XCTAssertEqual(manager.describe(error!), "locked out")
    }

    func testInvalidateAndSettings() async throws {
        let context = LAContext()
        context.touchIDAuthenticationAllowableReuseDuration = 1_000
        XCTAssertEqual(context.touchIDAuthenticationAllowableReuseDuration, LATouchIDAuthenticationMaximumAllowableReuseDuration)
        XCTAssertEqual(LATouchIDAuthenticationMaximumAllowableReuseDuration, 300)
        context.localizedReason = "Because"
        XCTAssertEqual(context.localizedReason, "Because")
        XCTAssertNotNil(context.evaluatedPolicyDomainState)
        context.invalidate()
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "x")
            XCTFail("expected invalidContext")
        } catch LAError.invalidContext {
            // Apple's pattern form
        }
    }

    func testRawValues() {
        XCTAssertEqual(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue, 1)
        XCTAssertEqual(LAPolicy.deviceOwnerAuthentication.rawValue, 2)
        XCTAssertEqual(LABiometryType.opticID.rawValue, 4)
        XCTAssertEqual(LAError.Code.notInteractive.rawValue, -1004)
        XCTAssertEqual(LAError.Code(rawValue: -8), .biometryLockout)
        XCTAssertEqual(LAError.touchIDLockout, .biometryLockout)
    }
}
