import Foundation

/// The versioned schema. Each migration runs once, inside the same transaction that records it in
/// `schema_migrations`, so a crash leaves either all of it or none. The logical schema is the same on
/// both engines: only BIGINT and TEXT columns (times are Unix seconds, hashes hex, keys base64url),
/// so no dialect-specific DDL is needed; `SQLDialect` holds what does differ.
public enum SchemaMigrations {
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]
    }

    static let all: [Migration] = [
        Migration(version: 1, name: "accounts, throttling, audit", statements: [
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                username_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                locked_until BIGINT,
                failed_count BIGINT NOT NULL DEFAULT 0
            )
            """,
            """
            CREATE TABLE login_throttle (
                throttle_key TEXT PRIMARY KEY,
                failures BIGINT NOT NULL,
                last_failure_at BIGINT NOT NULL,
                blocked_until BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE audit_events (
                id TEXT PRIMARY KEY,
                at BIGINT NOT NULL,
                account_id TEXT,
                event TEXT NOT NULL,
                ip TEXT,
                detail TEXT
            )
            """,
            "CREATE INDEX audit_events_account ON audit_events (account_id, at)",
        ]),
        Migration(version: 2, name: "sessions and refresh tokens", statements: [
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id),
                client_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX sessions_account ON sessions (account_id)",
            """
            CREATE TABLE refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                family_id TEXT NOT NULL REFERENCES sessions (id),
                parent_hash TEXT,
                account_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
            "CREATE INDEX refresh_tokens_parent ON refresh_tokens (parent_hash)",
        ]),
        Migration(version: 3, name: "signing keys", statements: [
            """
            CREATE TABLE signing_keys (
                kid TEXT PRIMARY KEY,
                private_key TEXT NOT NULL,
                public_jwk TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                retired_at BIGINT
            )
            """,
        ]),
        Migration(version: 4, name: "passkeys", statements: [
            """
            CREATE TABLE webauthn_users (
                account_id TEXT PRIMARY KEY,
                user_handle TEXT NOT NULL UNIQUE
            )
            """,
            """
            CREATE TABLE webauthn_challenges (
                challenge TEXT PRIMARY KEY,
                ceremony TEXT NOT NULL,
                user_handle TEXT,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at)",
            """
            CREATE TABLE webauthn_pending_accounts (
                user_handle TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE passkeys (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL,
                user_handle TEXT NOT NULL,
                public_key TEXT NOT NULL,
                algorithm BIGINT NOT NULL,
                sign_count BIGINT NOT NULL,
                transports TEXT NOT NULL,
                backup_eligible BIGINT NOT NULL,
                backup_state BIGINT NOT NULL,
                uv_at_registration BIGINT NOT NULL,
                aaguid TEXT NOT NULL,
                attestation_format TEXT NOT NULL,
                attestation_trust TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX passkeys_account ON passkeys (account_id)",
        ]),
        Migration(version: 5, name: "sign in with apple", statements: [
            """
            CREATE TABLE apple_identities (
                sub TEXT PRIMARY KEY,
                account_id TEXT NOT NULL,
                email TEXT,
                email_verified BIGINT NOT NULL,
                is_private_email BIGINT NOT NULL,
                email_enabled BIGINT NOT NULL,
                first_name TEXT,
                last_name TEXT,
                refresh_token_sealed TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX apple_identities_account ON apple_identities (account_id)",
            """
            CREATE TABLE apple_notifications (
                jti TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
        ]),
        // Every rotation wrote one more random index page for `parent_hash`, which only the rare grace path
        // reads; that path now finds the successor through the family index (a family is one session's chain).
        Migration(version: 6, name: "refresh tokens without the parent index", statements: [
            "DROP INDEX IF EXISTS refresh_tokens_parent",
        ]),
        // Issue 32. A session tells where and how it signed in, and when it last did (auth_time: only a sign-in renews
        // it, a refresh keeps it); each refresh token carries its session's auth_time and amr (`AuthenticationMethods`,
        // an integer), so a rotation copies them with the row it already writes instead of reading the session. The family index gains created_at:
        // the newest token of a family is the session's last use, found by one seek (an index entry a little wider,
        // no extra index to write per rotation).
        Migration(version: 7, name: "sessions: devices, sign-in method, authentication time", statements: [
            "ALTER TABLE sessions ADD COLUMN device_name TEXT",
            "ALTER TABLE sessions ADD COLUMN user_agent TEXT",
            "ALTER TABLE sessions ADD COLUMN client_address TEXT",
            "ALTER TABLE sessions ADD COLUMN sign_in_method TEXT",
            "ALTER TABLE sessions ADD COLUMN auth_time BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE sessions ADD COLUMN amr BIGINT NOT NULL DEFAULT 0",
            "UPDATE sessions SET auth_time = created_at",
            "ALTER TABLE refresh_tokens ADD COLUMN auth_time BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE refresh_tokens ADD COLUMN amr BIGINT NOT NULL DEFAULT 0",
            """
            UPDATE refresh_tokens SET auth_time = COALESCE(
                (SELECT created_at FROM sessions WHERE sessions.id = refresh_tokens.family_id), created_at)
            """,
            "DROP INDEX IF EXISTS refresh_tokens_family",
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id, created_at)",
        ]),
        // Issue 32. Apple's refresh token of a deleted account waits here until Apple's /auth/revoke answered 200
        // (AppleRevocationOutbox): still sealed, with the `sub` it is sealed to and the client id it was issued for.
        // A worker claims a row (claimed_by, claimed_until) before sending it, so no two instances send one at once.
        Migration(version: 8, name: "apple revocation outbox", statements: [
            "ALTER TABLE apple_identities ADD COLUMN client_id TEXT",
            """
            CREATE TABLE apple_revocations (
                id TEXT PRIMARY KEY,
                subject TEXT NOT NULL,
                client_id TEXT,
                token_sealed TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                claimed_by TEXT,
                claimed_until BIGINT,
                last_error TEXT
            )
            """,
            "CREATE INDEX apple_revocations_due ON apple_revocations (next_attempt_at)",
        ]),
        // App Attest: attested keys with the highest counter accepted, and one-time challenges (keys base64url).
        Migration(version: 10, name: "app attest", statements: [
            """
            CREATE TABLE app_attest_keys (
                key_id TEXT PRIMARY KEY,
                app_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                public_key TEXT NOT NULL,
                sign_count BIGINT NOT NULL,
                receipt TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            """
            CREATE TABLE app_attest_challenges (
                challenge TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX app_attest_challenges_expiry ON app_attest_challenges (expires_at)",
        ]),
    ]

    /// The newest version this program knows.
    public static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    /// Applies every migration not yet recorded. Safe to call from several processes at once.
    /// Returns the versions applied by this call.
    @discardableResult
    public static func migrate(_ database: any Database, now: Int64) throws -> [Int] {
        try database.transaction { conn in
            if let lock = database.dialect.migrationLockStatement { try conn.execute(lock) }
            try conn.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """)
            let applied = Set(try conn.execute("SELECT version FROM schema_migrations").map { try $0.integer(0) })
            if let stored = applied.max(), stored > Int64(latestVersion) {
                throw DatabaseError.schemaTooNew(stored: Int(stored), known: latestVersion)
            }
            var done: [Int] = []
            for migration in all.sorted(by: { $0.version < $1.version }) where !applied.contains(Int64(migration.version)) {
                do {
                    for statement in migration.statements { try conn.execute(statement) }
                } catch let error as DatabaseError {
                    throw DatabaseError.migrationFailed(version: migration.version, reason: error.localizedDescription)
                }
                try conn.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                 [.integer(Int64(migration.version)), .text(migration.name), .integer(now)])
                done.append(migration.version)
            }
            return done
        }
    }

    /// Versions recorded in `schema_migrations`, ascending.
    public static func appliedVersions(_ database: any Database) throws -> [Int] {
        try database.withConnection { conn in
            try conn.execute("SELECT version FROM schema_migrations ORDER BY version").map { Int(try $0.integer(0)) }
        }
    }
}
