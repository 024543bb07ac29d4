import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LatchkeyCrypto
import LatchkeyKeychain
import LatchkeyWebAuthn

/// App Attest for the requests an app marks (sign-up, token refresh): one key per install, attested once with the
/// server (`POST /v1/app-attest/challenge`, `POST /v1/app-attest/attest`), then an `X-App-Attest-Assertion` on each
/// marked request — the key's signature over the request's method, path and body and a one-time challenge
/// (`AppAttestClientData`).
///
/// ```swift
/// let appAttest = AppAttestClient(server: URL(string: "https://auth.example.com")!,
///                                 keychain: Keychain(service: "com.example.app", store: Keychain.defaultStore))
/// var signUp = URLRequest(url: URL(string: "https://auth.example.com/v1/accounts")!)
/// signUp.httpMethod = "POST"
/// signUp.setValue("application/json", forHTTPHeaderField: "Content-Type")
/// signUp.httpBody = try JSONEncoder().encode(["username": name, "password": password])
/// let (body, response) = try await appAttest.data(for: signUp)
/// // Token refresh: OAuthTokenRefresher(tokenEndpoint: …, appAttest: appAttest)
/// ```
///
/// - The key identifier lives in the keychain (`afterFirstUnlockThisDeviceOnly`: it names a key of this device's
///   Secure Enclave and must never reach another device through a backup), marked attested once the server accepted
///   the attestation; an unattested key left by an interrupted attestation is attested on the next call, as Apple
///   advises (keys are a limited resource of the device's risk metric).
/// - `DCError.invalidKey` (the key is gone: the app was reinstalled, the device restored) and the server's
///   `unknown_key` (it lost the key) make the client attest a new key and try once more.
/// - A marked request refused for its counter or challenge (two requests raced, a challenge expired) is sent once more
///   with a new assertion: the server checks the assertion before serving, so nothing was done the first time.
public actor AppAttestClient {
    /// The server's base URL (`…/v1/app-attest/challenge` and `…/v1/app-attest/attest` are below it).
    public nonisolated let server: URL
    /// The keychain holding the key identifier.
    public nonisolated let keychain: Keychain
    /// The item's key (account).
    public nonisolated let keychainKey: String
    let provider: any AppAttestProvider
    let session: URLSession
    private var attesting: Task<String, any Error>?

    /// A client of `server` keeping its key identifier in `keychain` under `keychainKey`, over `provider`.
    public init(server: URL, keychain: Keychain, keychainKey: String = "app-attest.key",
                provider: any AppAttestProvider, session: URLSession = .shared) {
        self.server = server
        self.keychain = keychain
        self.keychainKey = keychainKey
        self.provider = provider
        self.session = session
    }

    #if canImport(DeviceCheck)
    /// A client over `DCAppAttestService.shared`.
    public init(server: URL, keychain: Keychain, keychainKey: String = "app-attest.key", session: URLSession = .shared) {
        self.init(server: server, keychain: keychain, keychainKey: keychainKey, provider: DeviceCheckAppAttestProvider(),
                  session: session)
    }
    #endif

    /// Whether the device provides App Attest.
    public nonisolated var isSupported: Bool { provider.isSupported }

    // MARK: Marked requests

    /// Sends `request` with an assertion over it and returns the answer (any status). A refusal the client can cure —
    /// the key unknown to the server, a counter or challenge that lost a race — is answered by one more try. On a device
    /// without App Attest (`isSupported` false) the request goes without an assertion: the server's policy decides
    /// (`report` serves it, `require` refuses it with the step `missing`).
    public func data(for request: URLRequest) async throws(AppAttestClientError) -> (Data, HTTPURLResponse) {
        guard provider.isSupported else { return try await send(request) }
        var answer = try await send(try await asserted(request))
        guard answer.1.statusCode == 403, let step = Self.refusedStep(answer.0),
              [.unknownKey, .counter, .challenge].contains(step) else { return answer }
        if step == .unknownKey { try forgetKey() }
        answer = try await send(try await asserted(request))
        return answer
    }

    /// `request` with its `X-App-Attest-Assertion` header (for apps that send it themselves).
    public func asserted(_ request: URLRequest) async throws(AppAttestClientError) -> URLRequest {
        var request = request
        request.setValue(try await assertionHeader(for: request), forHTTPHeaderField: AppAttestRequestAssertion.headerName)
        return request
    }

    /// The `X-App-Attest-Assertion` value for `request`: its method, its URL's path as sent and its body, with a new
    /// one-time challenge. Attests a key first when there is none; a key the device no longer has is replaced once.
    public func assertionHeader(for request: URLRequest) async throws(AppAttestClientError) -> String {
        let method = request.httpMethod ?? "GET"
        let path = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedPath } ?? "/"
        let body = request.httpBody ?? Data()
        for attempt in 0..<2 {
            let keyID = try await attestedKeyID()
            let challenge = try await challenge()
            let hash = AppAttestClientData.requestHash(method: method, path: path, body: body, challenge: challenge)
            do {
                let assertion = try await provider.generateAssertion(keyID, clientDataHash: hash)
                return AppAttestRequestAssertion(keyID: try Self.keyIDBytes(keyID), challenge: challenge,
                                                 assertion: assertion).headerValue
            } catch .invalidKey where attempt == 0 {
                try forgetKey()
            }
        }
        throw .invalidKey
    }

    // MARK: The key

    /// The identifier of this install's attested key, attesting one first when there is none (one attestation at a
    /// time: concurrent callers wait for it).
    public func attestedKeyID() async throws(AppAttestClientError) -> String {
        if let attesting { return try await Self.value(of: attesting) }
        let stored = try storedKey()
        if let stored, stored.attested { return stored.keyID }
        let task = Task { try await self.attest(startingWith: stored?.keyID) }
        attesting = task
        defer { attesting = nil }
        return try await Self.value(of: task)
    }

    /// Forgets the key (a new one is made and attested on the next call), e.g. when the user signs out for good.
    public func forgetKey() throws(AppAttestClientError) {
        do { try keychain.remove(keychainKey) } catch .itemNotFound { return } catch { throw .storage("OSStatus \(error.status)") }
    }

    /// Makes (or reuses an unattested) key and has the server verify its attestation.
    private func attest(startingWith existing: String?) async throws(AppAttestClientError) -> String {
        guard provider.isSupported else { throw .unsupported }
        var keyID = existing
        for attempt in 0..<2 {
            let key: String
            if let keyID { key = keyID } else {
                key = try await provider.generateKey()
                try store(StoredKey(keyID: key, attested: false))
                keyID = key
            }
            let challenge = try await challenge()
            let attestation: Data
            do {
                attestation = try await provider.attestKey(key, clientDataHash: AppAttestClientData.attestationHash(challenge: challenge))
            } catch .invalidKey where attempt == 0 {
                try forgetKey()
                keyID = nil
                continue
            }
            let fields = ["key_id": try Self.keyIDBytes(key).base64URLEncodedString(),
                          "challenge": challenge.base64URLEncodedString(), "attestation": attestation.base64URLEncodedString()]
            let body = (try? JSONEncoder().encode(fields)) ?? Data()
            let (data, response) = try await send(Self.post(server.appendingPathComponent("v1/app-attest/attest"), body: body))
            switch response.statusCode {
            case 200, 201:
                try store(StoredKey(keyID: key, attested: true))
                return key
            default:
                let step = Self.refusedStep(data)
                // An expired or raced challenge says nothing about the key: once more, with a new challenge.
                if step == .challenge, attempt == 0 { continue }
                // Any other refusal will not pass later (Apple: discard the key identifier).
                if let step {
                    try forgetKey()
                    throw .refused(step)
                }
                throw .server(status: response.statusCode, code: Self.errorCode(data))
            }
        }
        throw .invalidKey
    }

    struct StoredKey: Codable, Sendable {
        var keyID: String
        var attested: Bool
    }

    private func storedKey() throws(AppAttestClientError) -> StoredKey? {
        do { return try keychain.value(StoredKey.self, forKey: keychainKey) } catch .itemNotFound { return nil } catch {
            throw .storage("OSStatus \(error.status)")
        }
    }

    private func store(_ key: StoredKey) throws(AppAttestClientError) {
        do {
            try keychain.accessibility(.afterFirstUnlockThisDeviceOnly).label("App Attest key").set(key, forKey: keychainKey)
        } catch {
            throw .storage("OSStatus \(error.status)")
        }
    }

    // MARK: The server

    /// A one-time challenge from `POST /v1/app-attest/challenge`.
    func challenge() async throws(AppAttestClientError) -> Data {
        let (data, response) = try await send(Self.post(server.appendingPathComponent("v1/app-attest/challenge"), body: nil))
        guard response.statusCode == 200 else { throw .server(status: response.statusCode, code: Self.errorCode(data)) }
        struct Body: Decodable { var challenge: String }
        guard let text = try? JSONDecoder().decode(Body.self, from: data).challenge,
              let challenge = Data(base64URLEncoded: text), !challenge.isEmpty else {
            throw .server(status: response.statusCode, code: "malformed_challenge")
        }
        return challenge
    }

    private func send(_ request: URLRequest) async throws(AppAttestClientError) -> (Data, HTTPURLResponse) {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw .network("URLError \(error.code.rawValue)")
        } catch {
            throw .network(String(describing: type(of: error)))
        }
        guard let http = response as? HTTPURLResponse else { throw .network("not an HTTP response") }
        return (data, http)
    }

    static func post(_ url: URL, body: Data?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }

    /// The failed check of an `app_attest_failed` answer.
    static func refusedStep(_ body: Data) -> AppAttestError.Step? {
        struct Refusal: Decodable { var error: String; var step: String? }
        guard let refusal = try? JSONDecoder().decode(Refusal.self, from: body), refusal.error == "app_attest_failed" else {
            return nil
        }
        return refusal.step.flatMap(AppAttestError.Step.init(rawValue:))
    }

    static func errorCode(_ body: Data) -> String? {
        struct ErrorBody: Decodable { var error: String }
        return (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error
    }

    /// The 32 bytes a `keyId` (base64 of SHA-256 of the public key) stands for.
    static func keyIDBytes(_ keyID: String) throws(AppAttestClientError) -> Data {
        guard let bytes = Data(base64Encoded: keyID), bytes.count == 32 else { throw .invalidKey }
        return bytes
    }

    private static func value(of task: Task<String, any Error>) async throws(AppAttestClientError) -> String {
        do { return try await task.value } catch let error as AppAttestClientError { throw error } catch {
            throw .network("cancelled")
        }
    }
}
