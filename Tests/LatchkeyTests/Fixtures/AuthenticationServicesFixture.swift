import AuthenticationServices
import Foundation
import Latchkey
import LatchkeyAuth
import LocalAuthentication

/// The Linux `AuthenticationServices` module as the ASAuthorization tests set it up: passkeys in the test keychain, the
/// device owner a simulated sensor that matches unless a test queues another outcome, and per test a real
/// `latchkey serve` (relying party `localhost`, accepting the app origin `https://localhost` and Sign in with Apple for
/// `clientID`) with `latchkey apple-stand-in` as its Apple.
enum AuthenticationServicesFixture {
    static let clientID = "com.example.notes"
    static let relyingParty = "localhost"

    /// The simulated device owner behind every `LAContext` the module makes.
    static let simulator: SimulatedAuthenticator = {
        let url = ChildProcess.simulatorStateFile("latchkey-asauth")
        let simulator = SimulatedAuthenticator(stateURL: url)
        try? simulator.setPasscode(Passcode("2580"))
        try? simulator.enroll()
        try? simulator.setDefaultOutcome(.match)
        return simulator
    }()

    private static let installed: Void = {
        AppleFrameworksFixture.useTestKeychain()
        let device = simulator
        LatchkeyAuthenticationServicesConfiguration.makeUserVerificationContext = {
            LAContext(latchkeyContext: device.makeContext())
        }
    }()

    /// Installs the keychain and the simulated owner (once per process).
    static func install() { _ = installed }

    /// A server and its Apple, stopped by `stop()`.
    struct Services {
        let server: ServerProcess
        let apple: ServerProcess

        func stop() {
            server.stop()
            apple.stop()
        }

        /// Moves the server's clock past its step-up max age (the default, 300 s): the sign-ins made so far are too old
        /// for a sensitive request, a step-up made now is recent for 300 s (`ServerProcess.advanceClock(by:)`).
        func passStepUpMaxAge() throws {
            try server.advanceClock(by: 301)
        }
    }

    /// Starts the stand-in for Apple, then `latchkey serve` using it; points the module's Apple ID authority at it.
    static func start(relyingParty rpID: String = relyingParty, appleID: String = "ada@example.com",
                      serverArguments: [String] = []) async throws -> Services {
        install()
        let binary = try LatchkeyBinary.required()
        let apple = try await ServerProcess.appleStandIn(binary: binary, arguments: ["--client-id", clientID])
        let server: ServerProcess
        do {
            server = try await ServerProcess(binary: binary, arguments: [
                "--rp-id", rpID, "--origin", "https://\(rpID)", "--apple-client-id", clientID,
                "--apple-base-url", apple.baseURL.absoluteString,
            ] + serverArguments)
        } catch {
            apple.stop()
            throw error
        }
        LatchkeyAuthenticationServicesConfiguration.appleIDAuthority = LatchkeyLoopbackAppleIDAuthority(
            baseURL: apple.baseURL, clientID: clientID, appleID: appleID)
        return Services(server: server, apple: apple)
    }
}
