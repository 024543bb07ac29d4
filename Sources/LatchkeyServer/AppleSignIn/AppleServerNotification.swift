import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// One server-to-server notification from Apple (a signed JWT posted as `{"payload": "<JWS>"}`).
public struct AppleServerNotification: Sendable, Hashable {
    public enum EventType: String, Sendable, Hashable {
        case emailDisabled = "email-disabled"
        case emailEnabled = "email-enabled"
        case consentRevoked = "consent-revoked"
        case accountDelete = "account-delete"
    }
    public var id: String
    public var type: EventType
    public var subject: String
    public var eventTime: Date
    public var email: String?
    public var isPrivateEmail: Bool?
}

/// Remembers processed notification ids (`jti`) so a redelivery is not acted on twice.
public protocol AppleNotificationLedger: Sendable {
    /// Records `jti`; returns false when it was already there.
    func record(_ jti: String, expiresAt: Date) throws -> Bool
}

/// A ledger in memory (one server process, tests).
public final class InMemoryAppleNotificationLedger: AppleNotificationLedger {
    private let seen = Locked<[String: Date]>([:])
    public init() {}
    public func record(_ jti: String, expiresAt: Date) throws -> Bool {
        seen.withLock { $0.updateValue(expiresAt, forKey: jti) == nil }
    }
}

/// Verifies and decodes server-to-server notifications with Apple's keys.
public struct AppleNotificationVerifier: Sendable {
    public let configuration: AppleSignInConfiguration
    public let keys: AppleKeyStore
    let ledger: any AppleNotificationLedger
    let now: @Sendable () -> Date

    public init(configuration: AppleSignInConfiguration, keys: AppleKeyStore,
                ledger: any AppleNotificationLedger = InMemoryAppleNotificationLedger(),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.keys = keys
        self.ledger = ledger
        self.now = now
    }

    struct Body: Decodable { var payload: String }

    struct Claims: Decodable {
        var jti: String?
        var exp: Double?
        var events: String?
    }

    struct Event: Decodable {
        var type: String
        var sub: String
        var event_time: Double
        var email: String?
        var is_private_email: AppleBool?
    }

    /// Verifies the POSTed JSON body and returns the event; a redelivered `jti` is `.duplicateNotification`.
    public func verify(body: Data) async throws(AppleSignInError) -> AppleServerNotification {
        // A repeated member (or UTF-16 text) is refused, as for every JSON body (`JSONTextCheck`).
        guard body.count <= 32 * 1024, JSONTextCheck.problem(in: body, maximumDepth: JSONTextCheck.joseDepth) == nil,
              let envelope = try? JSONDecoder().decode(Body.self, from: body) else {
            throw .malformedToken
        }
        let jws: JWS
        do { jws = try JWS(compactSerialization: envelope.payload, maximumSize: 16 * 1024) } catch {
            if case let .unsupportedAlgorithm(name) = error { throw .algorithmNotAllowed(name) }
            throw .malformedToken
        }
        guard jws.header.alg == .RS256 else { throw .algorithmNotAllowed(jws.header.alg.rawValue) }
        let key = try await keys.key(id: jws.header.kid)
        let options = JWTValidationOptions(allowedAlgorithms: [.RS256], issuer: configuration.issuer,
                                           audiences: configuration.clientIDs, clockSkew: configuration.clockSkew,
                                           now: now(), requireExpiration: true, requiredClaims: ["jti", "iat", "events"])
        let verified: VerifiedJWT
        do { verified = try JWT.verify(envelope.payload, key: key, options: options) } catch {
            throw AppleIdentityTokenVerifier.map(error)
        }
        guard let claims = try? verified.decode(Claims.self), let jti = claims.jti, let eventsJSON = claims.events else {
            throw .malformedToken
        }
        // `events` is a JSON document inside a string.
        let eventsData = Data(eventsJSON.utf8)
        guard JSONTextCheck.problem(in: eventsData, maximumDepth: JSONTextCheck.joseDepth) == nil,
              let event = try? JSONDecoder().decode(Event.self, from: eventsData) else {
            throw .malformedEvent("events")
        }
        let typeName = event.type == "account-deleted" ? "account-delete" : event.type
        guard let type = AppleServerNotification.EventType(rawValue: typeName) else {
            throw .malformedEvent("type \(event.type)")
        }
        let expiry = Date(timeIntervalSince1970: claims.exp ?? now().timeIntervalSince1970 + 86_400)
        let fresh: Bool
        do { fresh = try ledger.record(jti, expiresAt: expiry) } catch { throw .malformedEvent("ledger") }
        guard fresh else { throw .duplicateNotification }
        // Apple's event_time is in milliseconds.
        let seconds = event.event_time > 10_000_000_000 ? event.event_time / 1000 : event.event_time
        return AppleServerNotification(id: jti, type: type, subject: event.sub,
                                       eventTime: Date(timeIntervalSince1970: seconds), email: event.email,
                                       isPrivateEmail: event.is_private_email?.value)
    }
}
