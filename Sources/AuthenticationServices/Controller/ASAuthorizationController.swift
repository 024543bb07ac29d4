#if os(Linux)
import Foundation
import LatchkeySupport

/// `ASAuthorizationController`: performs requests made by providers and tells its delegate, on the main actor, how they
/// ended. As on Apple platforms, `performRequests()` returns at once, the controller stays alive until its delegate has
/// been called, and `cancel()` ends a running flow with `ASAuthorizationError.canceled`.
///
/// Linux: no sheet is shown. The first request that can be fulfilled is performed (an Apple ID request when an Apple
/// ID authority is configured, a registration, an assertion for which a passkey exists), after the user is verified
/// through `LAContext`; see `LatchkeyAuthenticationServicesConfiguration`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationController: NSObject {
    /// The requests this controller performs.
    open var authorizationRequests: [ASAuthorizationRequest] { requests }

    /// Told how the requests ended (held weakly).
    open var delegate: (any ASAuthorizationControllerDelegate)? {
        get { links.withLock { $0.delegate } }
        set { links.withLock { $0.delegate = newValue } }
    }

    /// Asked for the window to present over (held weakly).
    @available(watchOS, unavailable)
    open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)? {
        get { links.withLock { $0.presenter } }
        set { links.withLock { $0.presenter = newValue } }
    }

    struct Links {
        weak var delegate: (any ASAuthorizationControllerDelegate)?
        weak var presenter: (any ASAuthorizationControllerPresentationContextProviding)?
        var flow: Task<Void, Never>?
    }

    private let requests: [ASAuthorizationRequest]
    private let links = Locked(Links())

    public init(authorizationRequests: [ASAuthorizationRequest]) {
        requests = authorizationRequests
        super.init()
    }

    /// Starts the requests; the delegate hears of the outcome. With a password request among them (the
    /// existing-account flow), Sign in with Apple is offered only to an app the Apple ID already signed in to.
    open func performRequests() {
        start(.modal(existingOnly: isExistingAccountFlow))
    }

    /// Starts the requests with `options`. `.preferImmediatelyAvailableCredentials` offers only credentials that exist:
    /// this machine's passkeys (the only ones ever offered on Linux), saved passwords, and Sign in with Apple for an app
    /// the Apple ID already signed in to.
    @available(macOS 13.0, iOS 16.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
    open func performRequests(options: ASAuthorizationController.RequestOptions = []) {
        start(.modal(existingOnly: isExistingAccountFlow || options.contains(.preferImmediatelyAvailableCredentials)))
    }

    private var isExistingAccountFlow: Bool { requests.contains { $0 is ASAuthorizationPasswordRequest } }

    /// Starts the passkey assertion requests as AutoFill suggestions of a username field: with a passkey for the
    /// relying party, as if the user picked it; without one, the flow waits until `cancel()`.
    @available(iOS 16.0, *)
    @available(macOS, unavailable)
    @available(macCatalyst, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    open func performAutoFillAssistedRequests() {
        start(.autoFill)
    }

    /// Ends a running flow; the delegate is told `ASAuthorizationError.canceled`.
    @available(macOS 13.0, iOS 16.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    open func cancel() {
        links.withLock { $0.flow }?.cancel()
    }

    private func start(_ mode: AuthorizationPerformer.Mode) {
        let webCredentials = AuthorizationWork.webCredentials(of: requests)
        let works = requests.enumerated().compactMap { index, request in
            AuthorizationWork(request, webCredentials: webCredentials).map { (index: index, work: $0) }
        }
        let performer = AuthorizationPerformer(works: works)
        // Not Sendable, as Apple's controller: the flow only carries it to the main actor, the one place it is used.
        nonisolated(unsafe) let controller = self
        links.withLock { links in
            guard links.flow == nil else { return }
            links.flow = Task {
                await MainActor.run { _ = controller.presentationContextProvider?.presentationAnchor(for: controller) }
                let outcome = await performer.perform(mode)
                await MainActor.run { controller.finish(outcome) }
            }
        }
    }

    @MainActor
    private func finish(_ outcome: Result<AuthorizationOutcome, ASAuthorizationError>) {
        links.withLock { $0.flow = nil }
        let delegate = self.delegate
        switch outcome {
        case .success(let done):
            let request = requests[done.index]
            delegate?.authorizationController(controller: self, didCompleteWithAuthorization: ASAuthorization(
                provider: request.provider, credential: Self.credential(done.result)))
        case .failure(let error):
            delegate?.authorizationController(controller: self, didCompleteWithError: error)
        }
    }

    private static func credential(_ result: AuthorizationOutcome.Result) -> any ASAuthorizationCredential {
        switch result {
        case .appleID(let grant):
            return ASAuthorizationAppleIDCredential(grant)
        case .password(let saved):
            return ASPasswordCredential(user: saved.user, password: saved.password)
        case .registration(let kind, let response):
            let object = response.response.attestationObject.data
            return kind == .platform
                ? ASAuthorizationPlatformPublicKeyCredentialRegistration(
                    credentialID: response.rawId.data, rawClientDataJSON: response.response.clientDataJSON.data,
                    rawAttestationObject: object)
                : ASAuthorizationSecurityKeyPublicKeyCredentialRegistration(
                    credentialID: response.rawId.data, rawClientDataJSON: response.response.clientDataJSON.data,
                    rawAttestationObject: object)
        case .assertion(let kind, let response):
            let assertion = response.response
            return kind == .platform
                ? ASAuthorizationPlatformPublicKeyCredentialAssertion(
                    credentialID: response.rawId.data, rawClientDataJSON: assertion.clientDataJSON.data,
                    rawAuthenticatorData: assertion.authenticatorData.data, signature: assertion.signature.data,
                    userID: assertion.userHandle?.data ?? Data())
                : ASAuthorizationSecurityKeyPublicKeyCredentialAssertion(
                    credentialID: response.rawId.data, rawClientDataJSON: assertion.clientDataJSON.data,
                    rawAuthenticatorData: assertion.authenticatorData.data, signature: assertion.signature.data,
                    userID: assertion.userHandle?.data ?? Data())
        }
    }
}

extension ASAuthorizationController {
    /// `ASAuthorizationController.RequestOptions`.
    @available(macOS 13.0, iOS 16.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct RequestOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Offer only credentials on this device (no QR code for another device's passkey).
        public static let preferImmediatelyAvailableCredentials = RequestOptions(rawValue: 1 << 0)
    }
}
#endif
