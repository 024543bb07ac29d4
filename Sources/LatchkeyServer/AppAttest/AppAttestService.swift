import Foundation
import LatchkeyCrypto
import LatchkeySupport
import LatchkeyWebAuthn

/// App Attest on the server: one-time challenges, attestation of a device's key, and the assertion check on the
/// routes a policy protects (`AppAttestConfiguration.policies`). Keys, counters and challenges are in the auth
/// service's database, so every process on one database shares them. Without a configuration the endpoints answer
/// 404 and no route is protected.
public final class AppAttestService: Sendable {
    public let auth: AuthService
    /// The verifier, nil when App Attest is not configured.
    public let verifier: AppAttestVerifier?
    var database: any Database { auth.database }

    /// Length of a challenge, in bytes.
    public static let challengeLength = 32

    public init(auth: AuthService, configuration: AppAttestConfiguration?) {
        self.auth = auth
        verifier = configuration.map(AppAttestVerifier.init)
    }

    public var configuration: AppAttestConfiguration? { verifier?.configuration }

    /// A new one-time challenge and its lifetime in seconds.
    public func issueChallenge() throws(AppAttestEndpointError) -> (challenge: Data, lifetime: Int64) {
        guard let configuration else { throw .notConfigured }
        let challenge = SecureRandom.bytes(count: Self.challengeLength)
        let now = auth.clock.seconds
        do {
            try database.insertAppAttestChallenge(challenge, expiresAt: now + configuration.challengeLifetime, now: now)
        } catch {
            throw .storage(error)
        }
        return (challenge, configuration.challengeLifetime)
    }

    /// Verifies and stores the attestation of `keyID` made over one of our challenges. Returns the key and whether it
    /// is new (false: it was attested before and keeps its counter).
    public func attest(keyID: Data, challenge: Data, attestation: Data,
                       ip: String? = nil) throws(AppAttestEndpointError) -> (key: AppAttestKeyRecord, created: Bool) {
        guard let verifier else { throw .notConfigured }
        let now = auth.clock.now()
        do {
            guard try database.consumeAppAttestChallenge(challenge, now: Int64(now.timeIntervalSince1970)) else {
                throw AppAttestEndpointError.attestationRefused(.challengeInvalid)
            }
            let key: AppAttestKeyRecord
            do {
                key = try verifier.verifyAttestation(attestation, keyID: keyID,
                                                     clientDataHash: AppAttestClientData.attestationHash(challenge: challenge),
                                                     at: now)
            } catch {
                throw AppAttestEndpointError.attestationRefused(error)
            }
            let created = try database.insertAppAttestKey(key)
            try? database.appendAudit(AuditEvent(at: key.createdAt, accountID: nil, event: "app_attest_key_attested", ip: ip,
                                                 detail: "\(keyID.base64URLEncodedString()) \(key.appID)"))
            return (key, created)
        } catch let error as AppAttestEndpointError {
            if case .attestationRefused(let refusal) = error { audit(refusal, context: "attest", keyID: keyID, ip: ip) }
            throw error
        } catch {
            throw .storage(error)
        }
    }

    /// Checks the request's `X-App-Attest-Assertion` (the key's signature over the request's client data, its counter,
    /// its one-time challenge) and records it. Throws `assertionRefused` naming the failed check.
    public func verifyAssertion(of request: HTTPRequest) throws(AppAttestEndpointError) {
        guard let verifier else { throw .notConfigured }
        guard let value = request.header(AppAttestRequestAssertion.headerName) else {
            throw .assertionRefused(.assertionMissing)
        }
        do {
            let header = try AppAttestRequestAssertion(headerValue: value)
            let assertion = try AppAttestAssertion(header.assertion)
            guard let key = try database.appAttestKey(id: header.keyID) else { throw AppAttestError.unknownKey }
            let clientData = AppAttestClientData.request(method: request.method, path: request.path, body: request.body,
                                                         challenge: header.challenge)
            let counter = try verifier.verifyAssertion(assertion, clientData: clientData, key: key)
            switch try database.acceptAppAttestAssertion(keyID: key.keyID, counter: counter, challenge: header.challenge,
                                                         now: auth.clock.seconds) {
            case .accepted: return
            case .counterNotIncreasing(let stored):
                throw AppAttestError.counterNotIncreasing(stored: stored, received: counter)
            case .challengeInvalid: throw AppAttestError.challengeInvalid
            }
        } catch let error as AppAttestError {
            throw .assertionRefused(error)
        } catch {
            throw .storage(error)
        }
    }

    /// The policy's verdict on a request to a protected operation: nil to serve it, or the answer to send instead.
    /// `report` serves every request and logs (and audits) failed or missing assertions; `require` refuses them.
    func check(_ request: HTTPRequest, operation: AppAttestProtectedOperation) -> HTTPResponse? {
        guard let configuration else { return nil }
        let policy = configuration.policy(for: operation)
        guard policy != .off else { return nil }
        do {
            try verifyAssertion(of: request)
            return nil
        } catch {
            if case .assertionRefused(let refusal) = error {
                if refusal != .assertionMissing { audit(refusal, context: operation.rawValue, keyID: nil, ip: request.remoteAddress) }
                LatchkeyLog.log(.info, category: "app-attest",
                                "\(operation.rawValue) (\(policy.rawValue)): \(refusal.step.rawValue): \(refusal.message(in: .english))")
            } else {
                LatchkeyLog.log(.warning, category: "app-attest",
                                "\(operation.rawValue) (\(policy.rawValue)): \(error.protocolDescription)")
            }
            return policy == .require ? error.response : nil
        }
    }

    /// `app_attest_failed` in the audit log, with the operation and the failed check.
    private func audit(_ refusal: AppAttestError, context: String, keyID: Data?, ip: String?) {
        var detail = "\(context): \(refusal.step.rawValue)"
        if let keyID { detail += " " + keyID.base64URLEncodedString() }
        try? database.appendAudit(AuditEvent(at: auth.clock.seconds, accountID: nil, event: "app_attest_failed", ip: ip,
                                             detail: detail), durability: .relaxed)
    }

    /// `routes` with the protected operations among them guarded by their policy (others unchanged).
    public func guarding(_ routes: [Route]) -> [Route] {
        routes.map { route in
            guard let operation = AppAttestProtectedOperation.allCases.first(where: {
                $0.route.method == route.method.uppercased() && $0.route.path == route.path
            }) else { return route }
            let inner = route.handler
            return Route(route.method, route.path) { [self] request in
                if let refusal = check(request, operation: operation) { return refusal }
                return await inner(request)
            }
        }
    }
}
