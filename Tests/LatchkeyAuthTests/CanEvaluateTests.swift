import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("canEvaluate: Apple's pre-flight reasons", .offCooperativePool)
struct CanEvaluateTests {
    @Test func enrolledDeviceCanEvaluateBothPolicies() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let context = fixture.context()
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == nil)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthentication) } == nil)
        #expect(context.biometryType == .faceID)
    }

    @Test func noSensorIsBiometryNotAvailable() throws {
        let fixture = try SimulatorFixture(biometry: .none, enrolled: false)
        defer { fixture.cleanUp() }
        let context = fixture.context()
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryNotAvailable)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthentication) } == nil)
        #expect(context.biometryType == .none)
        #expect(context.domainState == nil)
    }

    @Test func noPasscodeIsPasscodeNotSetForBothPolicies() throws {
        let fixture = try SimulatorFixture(enrolled: false, passcode: nil)
        defer { fixture.cleanUp() }
        let context = fixture.context()
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .passcodeNotSet)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthentication) } == .passcodeNotSet)
    }

    @Test func enrolmentNeedsPasscode() throws {
        let fixture = try SimulatorFixture(enrolled: false, passcode: nil)
        defer { fixture.cleanUp() }
        #expect(throws: SimulatorError.passcodeRequired) { try fixture.simulator.enroll() }
    }

    @Test func notEnrolledIsBiometryNotEnrolledButOwnerPolicyWorks() throws {
        let fixture = try SimulatorFixture(enrolled: false)
        defer { fixture.cleanUp() }
        let context = fixture.context()
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryNotEnrolled)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthentication) } == nil)
    }

    @Test func removingThePasscodeRemovesBiometry() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.setPasscode(nil)
        let sensor = try fixture.simulator.sensor()
        #expect(!sensor.enrolled)
        #expect(!sensor.passcodeSet)
        #expect(syncAuthError { try fixture.context().canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .passcodeNotSet)
    }
}
