import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Apple's existing-account flow, run when the app starts signed out: one sheet offering, of Sign in with Apple, a
/// saved password and a passkey, only what this device already has (`preferImmediatelyAvailableCredentials`) — nothing
/// at all when it has none — and whichever the user picks starts the session on the server: a password through
/// `POST /v1/session/password`, a passkey's assertion through `POST /v1/passkeys/authenticate/verify`, Sign in with
/// Apple through `AppleSignIn`'s exchange (`POST /v1/session/apple`, the user identifier remembered).
///
/// ```swift
/// let existing = ExistingAccountSignIn(baseURL: api, appleSignIn: apple)   // SystemExistingAccountAuthorizer()
/// if let signedIn = try await existing.signIn() {
///     // signedIn.tokens, signedIn.method (.apple, .password or .passkey)
/// }   // nil: nothing to offer, or the user closed the sheet — show the sign-in screen
/// ```
public struct ExistingAccountSignIn: Sendable {
    /// The server.
    public let baseURL: URL
    /// Offers Sign in with Apple and exchanges its result; nil: not offered.
    public let appleSignIn: AppleSignIn?
    /// Offers saved passwords.
    public let offersPasswords: Bool
    /// Offers the relying party's passkeys (the server's options are fetched first).
    public let offersPasskeys: Bool
    let authorizer: any ExistingAccountAuthorizing
    let session: URLSession

    /// The flow against `baseURL`, its sheet shown by `authorizer`.
    public init(baseURL: URL, appleSignIn: AppleSignIn?, offersPasswords: Bool = true, offersPasskeys: Bool = true,
                authorizer: any ExistingAccountAuthorizing, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.appleSignIn = appleSignIn
        self.offersPasswords = offersPasswords
        self.offersPasskeys = offersPasskeys
        self.authorizer = authorizer
        self.session = session
    }

    /// How the user signed in.
    public enum Method: Sendable, Hashable {
        case apple, password, passkey
    }

    /// A session the flow started.
    public struct Result: Sendable {
        /// The server's tokens.
        public var tokens: TokenGrant
        /// What the user picked.
        public var method: Method
        /// The saved password's user name (a password sign-in).
        public var username: String?
        /// What Sign in with Apple returned (an Apple sign-in).
        public var appleAuthorization: AppleIDAuthorization?
    }

    /// Shows the sheet and starts the session for what the user picks. Nil when the device has nothing to offer or
    /// the user closed the sheet (show the sign-in screen then, without a word).
    public func signIn() async throws(ExistingAccountSignInError) -> Result? {
        let passkeys = PasskeyClient(baseURL: baseURL, ceremony: SheetMadeAssertions(), session: session)
        var options: PublicKeyCredentialRequestOptions?
        if offersPasskeys {
            do { options = try await passkeys.assertionOptions() } catch { throw .passkey(error) }
        }
        let nonce = AppleSignIn.makeNonce()
        let state = SecureRandom.bytes(count: 16).base64URLEncodedString()
        let request = ExistingAccountRequest(
            appleID: appleSignIn == nil ? nil : AppleIDAuthorizationRequest(hashedNonce: nonce.hashed, state: state, scopes: []),
            offersPasswords: offersPasswords, passkey: options,
            relyingPartyID: options?.rpId ?? baseURL.host ?? "localhost")
        let credential: ExistingAccountCredential
        do {
            credential = try await authorizer.authorize(request)
        } catch let failure as AuthorizationCeremonyError where failure.isCancellation {
            return nil
        } catch is CancellationError {
            return nil
        } catch let failure as AuthorizationCeremonyError {
            throw .authorization(failure)
        } catch {
            throw .authorization(.failed(error.localizedDescription))
        }
        switch credential {
        case .appleID(let authorization):
            guard let appleSignIn else { throw .authorization(.invalidResponse("appleID")) }
            do {
                let signedIn = try await appleSignIn.finishSignIn(authorization, nonce: nonce, state: state,
                                                                  server: AppleSessionClient(baseURL: baseURL, session: session))
                return Result(tokens: signedIn.tokens, method: .apple, appleAuthorization: signedIn.authorization)
            } catch {
                throw .apple(error)
            }
        case .password(let user, let password):
            do {
                let tokens = try await PasswordSessionClient(baseURL: baseURL, session: session)
                    .signIn(username: user, password: password)
                return Result(tokens: tokens, method: .password, username: user)
            } catch {
                throw .password(error)
            }
        case .passkey(let response):
            do { return Result(tokens: try await passkeys.verifyAssertion(response), method: .passkey) } catch {
                throw .passkey(error)
            }
        }
    }
}

/// For the passkey client's server calls only: the existing-account sheet makes the assertion itself.
struct SheetMadeAssertions: PasskeyCeremony {
    func register(_ options: PublicKeyCredentialCreationOptions, origin: String) async throws -> RegistrationResponse {
        throw AuthorizationCeremonyError.notHandled
    }

    func authenticate(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws -> AuthenticationResponse {
        throw AuthorizationCeremonyError.notHandled
    }
}

#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices

extension ExistingAccountSignIn {
    /// The flow with the system's sheet (`SystemExistingAccountAuthorizer`).
    public init(baseURL: URL, appleSignIn: AppleSignIn?, offersPasswords: Bool = true, offersPasskeys: Bool = true,
                presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)? = nil, session: URLSession = .shared) {
        self.init(baseURL: baseURL, appleSignIn: appleSignIn, offersPasswords: offersPasswords, offersPasskeys: offersPasskeys,
                  authorizer: SystemExistingAccountAuthorizer(presentationAnchor: presentationAnchor), session: session)
    }
}
#endif
