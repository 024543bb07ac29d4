import Foundation

extension Database {
    /// Appends an audit event.
    /// Appends `event`; `.relaxed` for events whose loss in a power cut costs nothing (a failed login).
    public func appendAudit(_ event: AuditEvent, durability: TransactionDurability = .full) throws {
        if durability == .full {
            try withConnection { conn in try insertAudit(event, on: conn) }
        } else {
            try transaction(durability: durability) { conn in try insertAudit(event, on: conn) }
        }
    }

    /// The newest events first, optionally for one account.
    public func auditEvents(accountID: String? = nil, limit: Int = 100) throws -> [AuditEvent] {
        try withConnection { conn in
            let rows: [SQLRow]
            if let accountID {
                rows = try conn.execute("""
                    SELECT id, at, account_id, event, ip, detail FROM audit_events WHERE account_id = ?
                    ORDER BY at DESC, id LIMIT ?
                    """, [.text(accountID), .integer(Int64(limit))])
            } else {
                rows = try conn.execute("SELECT id, at, account_id, event, ip, detail FROM audit_events ORDER BY at DESC, id LIMIT ?",
                                        [.integer(Int64(limit))])
            }
            return try rows.map { row in
                AuditEvent(id: try row.text(0), at: try row.integer(1), accountID: row.optionalText(2),
                           event: try row.text(3), ip: row.optionalText(4), detail: row.optionalText(5))
            }
        }
    }
}

func insertAudit(_ event: AuditEvent, on conn: any SQLConnection) throws {
    try conn.execute("INSERT INTO audit_events (id, at, account_id, event, ip, detail) VALUES (?, ?, ?, ?, ?, ?)",
                     [.text(event.id), .integer(event.at), .optional(event.accountID), .text(event.event),
                      .optional(event.ip), .optional(event.detail)])
}
