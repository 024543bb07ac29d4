import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeyWebAuthn

/// `latchkey serve [--host 127.0.0.1] [--port 8080] [--database sqlite:PATH|postgres://...] [--threads N] [--access-log]`
enum ServeCommand {
    static let usage = """
        usage: latchkey serve [--host 127.0.0.1] [--port 8080] [--database sqlite:PATH|postgres://...]
                              [--threads 4] [--access-log] [--issuer URL] [--print-routes]
                              [--db-pool 8] [--db-timeout-ms 5000] [--refresh-grace SECONDS] [--key-reload SECONDS]
                              [--trusted-proxy ADDRESS]... [--step-up-max-age SECONDS] [--clock-offset-file FILE]
                              [--rp-id localhost] [--rp-name NAME] [--origin URL]... [--user-verification required|preferred]
                              [--attestation none|indirect|direct|enterprise] [--attestation-roots DIR] [--allow-rs1]
                              [--metadata BLOB.jwt --metadata-root ROOT.pem|.der [--metadata-stale warn|refuse]]
                              [--apple-client-id ID]... [--apple-base-url URL] [--apple-team-id ID --apple-key-id ID
                               --apple-key-file KEY.p8] [--apple-token-key-file FILE] [--apple-revocation-retry SECONDS]
                              [--apple-app-id TEAMID.bundle.id]...
                              [--app-attest-app-id TEAMID.bundle.id]... [--app-attest-environment development|production]
                              [--app-attest-root ROOT.pem]... [--app-attest-policy OPERATION=off|report|require]...
        Prints `listening on http://HOST:PORT` once bound (port 0 picks a free port); SIGTERM/SIGINT shut it down
        gracefully. --print-routes lists the route table ("METHOD /path" lines) and exits.
        Several instances on one PostgreSQL (docs/ARCHITECTURE.md, "Running more than one instance"): give them the
        same --issuer (the URL clients use, e.g. the load balancer's). --db-pool bounds the PostgreSQL connections of
        this instance; a request that waits --db-timeout-ms for one is answered 503 with Retry-After. --refresh-grace
        (default 0: off) lets a refresh token presented again within SECONDS of its rotation return the same
        successor instead of revoking the family. --key-reload (default 30) bounds how long a signing key rotated
        by another instance takes to be published by this one. --trusted-proxy (repeatable) names a load balancer
        whose X-Forwarded-For gives the client address used for throttling, the session list and the access log.
        --step-up-max-age (default 300) is how recent a sign-in must be for DELETE /v1/me, a password change without
        the current password and adding a sign-in method; older tokens get 401 insufficient_user_authentication.
        --clock-offset-file is for tests only: the server's clock runs ahead by the whole seconds FILE holds (read
        again whenever it changes; missing means 0), so a test moves time forward (e.g. past the step-up max age)
        instead of sleeping. Never give it to a server people use.
        Passkeys: --rp-id is the WebAuthn relying party ID; --origin (repeatable) the accepted origins, by default
        http://localhost:PORT and http://127.0.0.1:PORT (the terminal client) when the RP ID is localhost.
        --attestation is the attestation the options ask for (default none). --attestation-roots DIR holds the
        attestation root certificates, DIR/<format>/*.pem with <format> one of packed, fido-u2f, apple, tpm,
        android-key, android-safetynet; a chain to one of them makes a passkey's attestation "trusted". Roots need
        --attestation other than none (nothing would be checked against them): the server refuses to start otherwise.
        --allow-rs1 accepts passkeys whose key is RS1 (RSA with SHA-1, made by some older Windows Hello TPMs);
        without it they are refused, and ones registered earlier stop signing in.
        --metadata is a FIDO Metadata Service (MDS3) BLOB downloaded from mds3.fidoalliance.org, verified against
        --metadata-root (the "FIDO Alliance Global Root" certificate you download); nothing is fetched. Its entries
        name authenticators in passkey listings, add attestation roots per AAGUID, and refuse registrations from
        revoked or compromised models; its roots are used only when attestation is asked for (--attestation direct),
        which a warning at start says. A BLOB past its nextUpdate is used with a warning (--metadata-stale warn,
        the default) or refused (--metadata-stale refuse). Warnings of the libraries (LatchkeyLog) go to standard
        error from level warning up unless LATCHKEY_LOG says otherwise.
        Sign in with Apple: --apple-client-id (repeatable) are the accepted audiences; team/key id and the .p8 key
        file enable the authorization-code exchange; --apple-token-key-file (base64 of 32 bytes) is the AES-256-GCM
        key Apple refresh tokens are sealed with (without it they are not stored). When an account is deleted, its Apple
        refresh token is revoked at Apple; if Apple cannot be reached the revocation waits in the database and is
        retried after --apple-revocation-retry seconds (default 60), doubling up to an hour, until Apple answers.
        iOS apps: --apple-app-id (repeatable) lists an app, TEAMID.bundle.id, in the apple-app-site-association file
        served at /.well-known/apple-app-site-association ({"webcredentials":{"apps":[...]}}), so an app whose
        entitlement has webcredentials:<rp id> uses passkeys of this relying party; give --rp-id and
        --origin https://<rp id>, and serve the domain over HTTPS. Without the option the file answers 404.
        App Attest (docs/APP-ATTEST.md): --app-attest-app-id (repeatable) turns it on for an app, TEAMID.bundle.id;
        --app-attest-environment (default production) is the environment its entitlement names (the AAGUID attestations
        must carry). Attestations must chain to Apple's App Attestation Root CA or to a --app-attest-root (repeatable,
        PEM; e.g. the development attestation authority of Linux's DeviceCheck). --app-attest-policy sets what
        sign-up (POST /v1/accounts) and token-refresh (POST /v1/token) ask of the X-App-Attest-Assertion header: off,
        report (verify and log, serve anyway; the default) or require (403 without a valid assertion).
        """

    struct Options {
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var database = "sqlite:latchkey.sqlite"
        var threads = 4
        var accessLog = false
        var printRoutes = false
        /// `iss` of access tokens; the bound `http://HOST:PORT` when not given.
        var issuer: String?
        var rpID = "localhost"
        var rpName = "Latchkey"
        var origins: [String] = []
        var userVerificationRequired = true
        var attestation = AttestationConveyancePreference.none
        var attestationRootsDirectory: String?
        var allowRS1 = false
        var appleClientIDs: [String] = []
        var appleBaseURL: URL?
        var appleTeamID: String?
        var appleKeyID: String?
        var appleKeyFile: String?
        var appleTokenKeyFile: String?
        var appleAppIDs: [AppleAppID] = []
        var databasePoolSize = 8
        var databaseTimeoutMilliseconds = 5_000
        var refreshGraceSeconds: Int64 = 0
        var keyReloadSeconds: Int64 = 30
        var stepUpMaxAge: Int64 = 300
        /// Testing only: the file whose seconds the server's clock runs ahead by (`OffsetFileClock`).
        var clockOffsetFile: String?
        var appleRevocationRetrySeconds: Int64 = 60
        var trustedProxies: Set<String> = []
        var metadataFile: String?
        var metadataRootFile: String?
        var metadataStalePolicy = MetadataBLOB.StalePolicy.warn
        var appAttestAppIDs: [AppleAppID] = []
        var appAttestEnvironment = AppAttestEnvironment.production
        var appAttestRootFiles: [String] = []
        var appAttestPolicies: [AppAttestProtectedOperation: AppAttestPolicy] = [:]
    }

    enum Parsed {
        case success(Options)
        case failure(String)
    }

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--host":
                guard let host = value() else { return .failure("--host needs a value") }
                options.host = host
            case "--port":
                guard let text = value(), let port = UInt16(text) else { return .failure("--port needs a number 0...65535") }
                options.port = port
            case "--database":
                guard let database = value(), database.hasPrefix("sqlite:") || database.hasPrefix("postgres://")
                        || database.hasPrefix("postgresql://") else {
                    return .failure("--database needs sqlite:PATH or postgres://...")
                }
                options.database = database
            case "--threads":
                guard let text = value(), let threads = Int(text), (1...64).contains(threads) else {
                    return .failure("--threads needs a number 1...64")
                }
                options.threads = threads
            case "--access-log":
                options.accessLog = true
            case "--db-pool":
                guard let text = value(), let size = Int(text), (1...256).contains(size) else {
                    return .failure("--db-pool needs a number 1...256")
                }
                options.databasePoolSize = size
            case "--db-timeout-ms":
                guard let text = value(), let ms = Int(text), (1...600_000).contains(ms) else {
                    return .failure("--db-timeout-ms needs a number of milliseconds 1...600000")
                }
                options.databaseTimeoutMilliseconds = ms
            case "--refresh-grace":
                guard let text = value(), let seconds = Int64(text), (0...300).contains(seconds) else {
                    return .failure("--refresh-grace needs a number of seconds 0...300")
                }
                options.refreshGraceSeconds = seconds
            case "--trusted-proxy":
                guard let address = value(), !address.isEmpty else { return .failure("--trusted-proxy needs an address") }
                options.trustedProxies.insert(address)
            case "--step-up-max-age":
                guard let text = value(), let seconds = Int64(text), (1...86_400).contains(seconds) else {
                    return .failure("--step-up-max-age needs a number of seconds 1...86400")
                }
                options.stepUpMaxAge = seconds
            case "--clock-offset-file":
                guard let path = value(), !path.isEmpty else { return .failure("--clock-offset-file needs a file") }
                options.clockOffsetFile = path
            case "--apple-revocation-retry":
                guard let text = value(), let seconds = Int64(text), (1...3600).contains(seconds) else {
                    return .failure("--apple-revocation-retry needs a number of seconds 1...3600")
                }
                options.appleRevocationRetrySeconds = seconds
            case "--key-reload":
                guard let text = value(), let seconds = Int64(text), (1...3600).contains(seconds) else {
                    return .failure("--key-reload needs a number of seconds 1...3600")
                }
                options.keyReloadSeconds = seconds
            case "--issuer":
                guard let issuer = value(), issuer.hasPrefix("http://") || issuer.hasPrefix("https://") else {
                    return .failure("--issuer needs an http(s) URL")
                }
                options.issuer = issuer
            case "--rp-id":
                guard let id = value(), !id.isEmpty, !id.contains("/"), !id.contains(":") else {
                    return .failure("--rp-id needs a domain name")
                }
                options.rpID = id
            case "--rp-name":
                guard let name = value(), !name.isEmpty else { return .failure("--rp-name needs a value") }
                options.rpName = name
            case "--origin":
                guard let origin = value(), origin.hasPrefix("http://") || origin.hasPrefix("https://") else {
                    return .failure("--origin needs an http(s) origin")
                }
                options.origins.append(origin.hasSuffix("/") ? String(origin.dropLast()) : origin)
            case "--user-verification":
                switch value() {
                case "required": options.userVerificationRequired = true
                case "preferred": options.userVerificationRequired = false
                default: return .failure("--user-verification needs required or preferred")
                }
            case "--attestation":
                guard let text = value(), let preference = AttestationConveyancePreference(rawValue: text) else {
                    return .failure("--attestation needs none, indirect, direct or enterprise")
                }
                options.attestation = preference
            case "--attestation-roots":
                guard let path = value(), !path.isEmpty else { return .failure("--attestation-roots needs a directory") }
                options.attestationRootsDirectory = path
            case "--allow-rs1":
                options.allowRS1 = true
            case "--apple-client-id":
                guard let id = value(), !id.isEmpty else { return .failure("--apple-client-id needs a value") }
                options.appleClientIDs.append(id)
            case "--apple-base-url":
                guard let text = value(), let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    return .failure("--apple-base-url needs an http(s) URL")
                }
                options.appleBaseURL = url
            case "--apple-team-id":
                guard let id = value(), !id.isEmpty else { return .failure("--apple-team-id needs a value") }
                options.appleTeamID = id
            case "--apple-key-id":
                guard let id = value(), !id.isEmpty else { return .failure("--apple-key-id needs a value") }
                options.appleKeyID = id
            case "--apple-key-file":
                guard let path = value(), !path.isEmpty else { return .failure("--apple-key-file needs a path") }
                options.appleKeyFile = path
            case "--apple-token-key-file":
                guard let path = value(), !path.isEmpty else { return .failure("--apple-token-key-file needs a path") }
                options.appleTokenKeyFile = path
            case "--apple-app-id":
                guard let text = value() else { return .failure("--apple-app-id needs TEAMID.bundle.id") }
                do {
                    options.appleAppIDs.append(try AppleAppID(text))
                } catch {
                    return .failure("--apple-app-id: \(error.localizedDescription)")
                }
            case "--metadata":
                guard let path = value(), !path.isEmpty else { return .failure("--metadata needs a path") }
                options.metadataFile = path
            case "--metadata-root":
                guard let path = value(), !path.isEmpty else { return .failure("--metadata-root needs a path") }
                options.metadataRootFile = path
            case "--metadata-stale":
                switch value() {
                case "warn": options.metadataStalePolicy = .warn
                case "refuse": options.metadataStalePolicy = .refuse
                default: return .failure("--metadata-stale needs warn or refuse")
                }
            case "--app-attest-app-id":
                guard let text = value() else { return .failure("--app-attest-app-id needs TEAMID.bundle.id") }
                do {
                    options.appAttestAppIDs.append(try AppleAppID(text))
                } catch {
                    return .failure("--app-attest-app-id: \(error.localizedDescription)")
                }
            case "--app-attest-environment":
                guard let text = value(), let environment = AppAttestEnvironment(rawValue: text) else {
                    return .failure("--app-attest-environment needs development or production")
                }
                options.appAttestEnvironment = environment
            case "--app-attest-root":
                guard let path = value(), !path.isEmpty else { return .failure("--app-attest-root needs a PEM file") }
                options.appAttestRootFiles.append(path)
            case "--app-attest-policy":
                let operations = AppAttestProtectedOperation.allCases.map(\.rawValue).joined(separator: ", ")
                guard let text = value(), let equals = text.firstIndex(of: "="),
                      let operation = AppAttestProtectedOperation(rawValue: String(text[..<equals])),
                      let policy = AppAttestPolicy(rawValue: String(text[text.index(after: equals)...])) else {
                    return .failure("--app-attest-policy needs OPERATION=off|report|require, OPERATION one of \(operations)")
                }
                options.appAttestPolicies[operation] = policy
            case "--print-routes":
                options.printRoutes = true
            case "--help", "-h":
                return .failure("")
            default:
                return .failure("unknown option '\(arguments[index])'")
            }
            index += 1
        }
        guard (options.metadataFile == nil) == (options.metadataRootFile == nil) else {
            return .failure("--metadata and --metadata-root go together")
        }
        if options.appAttestAppIDs.isEmpty,
           !options.appAttestRootFiles.isEmpty || !options.appAttestPolicies.isEmpty {
            return .failure("--app-attest-root and --app-attest-policy need --app-attest-app-id")
        }
        return .success(options)
    }

    /// The verified FIDO metadata of `--metadata`/`--metadata-root`, nil without them. A stale BLOB under the
    /// `warn` policy is reported on standard error.
    static func metadata(_ options: Options) throws -> MetadataService? {
        guard let blobPath = options.metadataFile, let rootPath = options.metadataRootFile else { return nil }
        let blob = try MetadataBLOB(contentsOf: blobPath, rootCertificate: rootPath, stalePolicy: options.metadataStalePolicy)
        if blob.isStale() {
            let day = blob.nextUpdate.formatted(Date.ISO8601FormatStyle().year().month().day())
            FileHandle.standardError.write(Data("latchkey serve: warning: the metadata BLOB (no \(blob.number)) was due for an update on \(day); download a new one\n".utf8))
        }
        FileHandle.standardError.write(Data("latchkey serve: FIDO metadata BLOB no \(blob.number), \(blob.entries.count) entries\n".utf8))
        return MetadataService(blob: blob)
    }

    /// The auth service behind `latchkey serve`: the database from `--database` (migrated at start) and tokens
    /// issued by `--issuer` or the bound address.
    static func service(_ options: Options, baseURL: String) throws -> AuthService {
        let database = try DatabaseLocation.open(options.database, poolSize: options.databasePoolSize,
                                                 acquireTimeoutMilliseconds: options.databaseTimeoutMilliseconds)
        var configuration = AuthConfiguration(issuer: options.issuer ?? baseURL, refreshGraceSeconds: options.refreshGraceSeconds)
        configuration.signingKeyReloadInterval = options.keyReloadSeconds
        configuration.stepUpMaxAge = options.stepUpMaxAge
        let clock: any ServerClock = options.clockOffsetFile.map { OffsetFileClock(path: $0) } ?? SystemClock()
        return try AuthService(database: database, configuration: configuration, clock: clock)
    }

    /// The relying party of the passkey endpoints (origins default to the bound port on localhost), with the
    /// attestation roots of `--attestation-roots` (reported on standard error).
    static func webAuthnConfiguration(_ options: Options, boundPort: UInt16) throws -> WebAuthnConfiguration {
        var origins = Set(options.origins)
        if origins.isEmpty, options.rpID == "localhost" {
            origins = ["http://localhost:\(boundPort)", "http://127.0.0.1:\(boundPort)"]
        } else if origins.isEmpty {
            origins = ["https://\(options.rpID)"]
        }
        var configuration = WebAuthnConfiguration(relyingPartyID: options.rpID, relyingPartyName: options.rpName,
                                                  allowedOrigins: origins, attestation: options.attestation)
        configuration.allowRS1CredentialKeys = options.allowRS1
        if let directory = options.attestationRootsDirectory {
            configuration.attestationTrustAnchors = try AttestationRoots.load(directory: directory)
            let summary = AttestationRoots.summary(configuration.attestationTrustAnchors)
            FileHandle.standardError.write(Data("latchkey serve: attestation roots: \(summary)\n".utf8))
        }
        return configuration
    }

    /// App Attest from the `--app-attest-*` options (nil without an app ID): Apple's root plus the `--app-attest-root`
    /// files, the policies over the defaults (report), reported on standard error.
    static func appAttestConfiguration(_ options: Options) throws -> AppAttestConfiguration? {
        guard !options.appAttestAppIDs.isEmpty else { return nil }
        var configuration = AppAttestConfiguration(appIDs: options.appAttestAppIDs, environment: options.appAttestEnvironment)
        for path in options.appAttestRootFiles {
            let language = MessageLanguage.current
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw AppleOptionError(message: language.pick(english: "--app-attest-root: cannot read \(path)",
                                                              korean: "--app-attest-root: \(path)을(를) 읽을 수 없습니다"))
            }
            do { configuration.trustAnchors += try Certificate.all(pem: text) } catch {
                throw AppleOptionError(message: "--app-attest-root: \(path): \(error.localizedDescription)")
            }
        }
        configuration.policies.merge(options.appAttestPolicies) { _, given in given }
        let policies = AppAttestProtectedOperation.allCases.map { "\($0.rawValue) \(configuration.policy(for: $0).rawValue)" }
        FileHandle.standardError.write(Data(("latchkey serve: App Attest for \(options.appAttestAppIDs.map(\.description).joined(separator: ", ")) "
            + "(\(options.appAttestEnvironment.rawValue), \(configuration.trustAnchors.count) roots; \(policies.joined(separator: ", ")))\n").utf8))
        return configuration
    }

    /// Why the Apple options could not be used.
    struct AppleOptionError: LocalizedError {
        let message: String
        var errorDescription: String? { message }
    }

    /// Sign in with Apple from the `--apple-*` options (the key files are read here; their contents are never printed).
    static func appleService(_ options: Options, auth: AuthService) throws -> AppleSessionService {
        var privateKey: P256.Signing.PrivateKey?
        if let path = options.appleKeyFile {
            guard options.appleTeamID != nil, options.appleKeyID != nil else {
                throw AppleOptionError(message: "--apple-key-file needs --apple-team-id and --apple-key-id")
            }
            guard let pem = try? String(contentsOfFile: path, encoding: .utf8),
                  let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
                throw AppleOptionError(message: "--apple-key-file: not a readable P-256 private key (PEM)")
            }
            privateKey = key
        }
        var tokenKey: SymmetricKey?
        if let path = options.appleTokenKeyFile {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
                throw AppleOptionError(message: "--apple-token-key-file: needs the base64 of 32 random bytes")
            }
            tokenKey = SymmetricKey(data: bytes)
        }
        let configuration = AppleSignInConfiguration(
            clientIDs: Set(options.appleClientIDs), baseURL: options.appleBaseURL ?? AppleSignInConfiguration.appleBaseURL,
            teamID: options.appleTeamID, keyID: options.appleKeyID, privateKey: privateKey)
        let retry = options.appleRevocationRetrySeconds
        return AppleSessionService(auth: auth, configuration: configuration, refreshTokenKey: tokenKey,
                                   revocationPolicy: AppleRevocationOutbox.Policy(firstRetryDelay: retry,
                                                                                 pollInterval: min(retry, 60)))
    }

    /// Rotates the signing key when it is due, checked every hour (old keys stay published until their tokens expire).
    static func scheduleKeyRotation(_ service: AuthService) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "latchkey.serve.key-rotation"))
        timer.schedule(deadline: .now() + 3600, repeating: 3600)
        timer.setEventHandler {
            do {
                try service.keyRing.rotateIfDue()
            } catch {
                FileHandle.standardError.write(Data("latchkey serve: key rotation failed: \(error.localizedDescription)\n".utf8))
            }
        }
        timer.resume()
        return timer
    }

    static func run(_ arguments: [String]) -> Int32 {
        var options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let message):
            let text = message.isEmpty ? usage : "latchkey serve: \(message)\n\(usage)"
            FileHandle.standardError.write(Data((text + "\n").utf8))
            return message.isEmpty ? 0 : 64
        }
        // The libraries' warnings (a configuration that is valid but probably not meant) reach the operator.
        if ProcessInfo.processInfo.environment["LATCHKEY_LOG"] == nil {
            LatchkeyLog.setHandler(LatchkeyLog.standardErrorHandler(environment: ["LATCHKEY_LOG": "warning"]))
        }
        if let path = options.clockOffsetFile {
            FileHandle.standardError.write(Data("latchkey serve: warning: testing only: the clock runs ahead by the seconds in \(path)\n".utf8))
        }
        var configuration = HTTPServerConfiguration(host: options.host, port: options.port, threads: options.threads,
                                                    accessLog: options.accessLog ? .standardError : nil)
        configuration.shutdownGracePeriod = .seconds(10)
        configuration.trustedProxies = options.trustedProxies
        // Listing the routes needs a service but must not create or migrate a database where it runs.
        let scratch = options.printRoutes
            ? FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-routes-\(UUID().uuidString)") : nil
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        do {
            if let scratch {
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                options.database = "sqlite:" + scratch.appendingPathComponent("routes.sqlite").path
            }
            let server = HTTPServer(configuration: configuration)
            if !options.printRoutes { try server.bind() }
            let service = try service(options, baseURL: server.baseURL)
            let passkeys = try PasskeyService(auth: service,
                                          configuration: try webAuthnConfiguration(options, boundPort: server.port),
                                          metadata: try metadata(options),
                                          userVerification: options.userVerificationRequired ? .required : .preferred)
            let apple = try appleService(options, auth: service)
            let association = AppleAppSiteAssociation(webCredentialApps: options.appleAppIDs)
            let appAttest = AppAttestService(auth: service, configuration: try appAttestConfiguration(options))
            let router = Router(appAttest.guarding(service.routes()) + passkeys.routes() + apple.routes()
                                    + appAttest.routes() + (WebPage()?.routes() ?? []),
                                synchronous: [.health, association.route])
            if options.printRoutes {
                let table = router.routeTable.map { "\($0.method) \($0.path)\n" }.joined()
                FileHandle.standardOutput.write(Data(table.utf8))
                return 0
            }
            try server.start(router: router)
            let rotation = scheduleKeyRotation(service)
            // Apple revocations queued by deletions (here or on another instance, before a restart included).
            let revocations = apple.revocations.map { outbox in Task.detached { await outbox.run() } }
            defer {
                rotation.cancel()
                revocations?.cancel()
            }
            return server.serveUntilSignal(as: "serve")
        } catch {
            FileHandle.standardError.write(Data("latchkey serve: \(error.localizedDescription)\n".utf8))
            return 1
        }
    }
}
