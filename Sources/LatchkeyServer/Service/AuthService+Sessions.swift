import Foundation

/// One session in `GET /v1/sessions`.
public struct SessionSummary: Codable, Sendable, Equatable {
    public var id: String
    public var createdAt: Int64
    public var lastUsedAt: Int64
    /// The device name given at sign-in, else the User-Agent.
    public var deviceName: String?
    public var clientAddress: String?
    public var signInMethod: SignInMethod?
    public var amr: [String]
    public var authTime: Int64
    /// True for the session of the Bearer token that asked.
    public var current: Bool

    public init(_ activity: SessionActivity, current: Bool) {
        let session = activity.session
        id = session.id
        createdAt = session.createdAt
        lastUsedAt = activity.lastUsedAt
        deviceName = session.deviceName ?? session.userAgent
        clientAddress = session.clientAddress
        signInMethod = session.signInMethod
        amr = session.amr.references
        authTime = session.authTime
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id, amr, current
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case deviceName = "device_name"
        case clientAddress = "client_address"
        case signInMethod = "sign_in_method"
        case authTime = "auth_time"
    }

    /// The body of `GET /v1/sessions`, `{"sessions":[…]}`: the bytes the server's `JSONEncoder` writes for it, built
    /// directly (`JSONEncoder` was four fifths of listing 100 sessions).
    public static func listBody(_ sessions: [SessionSummary]) -> Data {
        var out = JSONObjectWriter(capacity: 16 + 320 * sessions.count)
        out.member("sessions", objects: sessions) { session, object in session.write(to: &object) }
        return out.finish()
    }

    /// Writes this session's members in `JSONEncoder`'s sorted order, absent ones left out.
    func write(to out: inout JSONObjectWriter) {
        out.member("amr", amr)
        out.member("auth_time", authTime)
        if let clientAddress { out.member("client_address", clientAddress) }
        out.member("created_at", createdAt)
        out.member("current", current)
        if let deviceName { out.member("device_name", deviceName) }
        out.member("id", id)
        out.member("last_used_at", lastUsedAt)
        if let signInMethod { out.member("sign_in_method", signInMethod.rawValue) }
    }
}

extension AuthService {
    /// The live sessions of the Bearer token's account: the caller's first, then the others, most recently used first.
    public func sessions(authorization: String?) throws(AccountEndpointError) -> [SessionSummary] {
        do {
            let claims = try authenticate(authorization)
            return try database.liveSessions(accountID: claims.sub, now: clock.seconds)
                .map { SessionSummary($0, current: $0.session.id == claims.sid) }
                .sorted { a, b in
                    if a.current != b.current { return a.current }
                    return (a.lastUsedAt, a.createdAt, a.id) > (b.lastUsedAt, b.createdAt, b.id)
                }
        } catch {
            throw .from(error)
        }
    }

    /// Ends one live session of the Bearer token's account (the caller's own included): its refresh token stops at
    /// once, on every instance. `notFound` for any other id, another account's included.
    public func endSession(id: String, authorization: String?, ip: String? = nil) throws(AccountEndpointError) {
        do {
            let claims = try authenticate(authorization)
            let now = clock.seconds
            guard try database.endSession(id: id, accountID: claims.sub, now: now) else { throw AccountEndpointError.notFound }
            try database.appendAudit(AuditEvent(at: now, accountID: claims.sub, event: "session_ended", ip: ip,
                                                detail: "session \(id)"))
        } catch {
            throw .from(error)
        }
    }

    /// Ends every live session of the Bearer token's account but the caller's; returns how many ended.
    public func endOtherSessions(authorization: String?, ip: String? = nil) throws(AccountEndpointError) -> Int {
        do {
            let claims = try authenticate(authorization)
            let now = clock.seconds
            let ended = try database.endSessions(accountID: claims.sub, except: claims.sid, now: now)
            try database.appendAudit(AuditEvent(at: now, accountID: claims.sub, event: "other_sessions_ended", ip: ip,
                                                detail: "\(ended) sessions"))
            return ended
        } catch {
            throw .from(error)
        }
    }
}
