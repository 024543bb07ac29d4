import Foundation
import LatchkeyCrypto
import LatchkeySupport

extension AppleIDStandIn {
    /// Apple's endpoints (`/auth/keys`, `/auth/token`, `/auth/revoke`) and the device's (`/dev/...`).
    public func routes() -> [Route] {
        [
            Route("GET", "/auth/keys") { [self] _ in .json(publishedKeys()) },
            Route("POST", "/auth/token") { [self] request in tokenEndpoint(request) },
            Route("POST", "/auth/revoke") { [self] request in revokeEndpoint(request) },
            Route("POST", "/dev/authorize") { [self] request in
                do {
                    return .json(try authorize(request.decodeJSON(AuthorizationRequest.self)))
                } catch let error as HTTPRequestError {
                    return error.response
                } catch {
                    return .error(status: 400, code: "invalid_client", description: error.localizedDescription)
                }
            },
            Route("GET", "/dev/credential-state") { [self] request in
                let state = credentialState(user: request.query["user"] ?? "", clientID: request.query["client_id"] ?? "")
                return .json(["state": state])
            },
            Route("GET", "/dev/revocations") { [self] _ in .json(["revocations": revocations]) },
            Route("POST", "/dev/revoke") { [self] request in
                struct Body: Decodable { var client_id: String; var user: String }
                guard let body = try? request.decodeJSON(Body.self) else { return .error(status: 400, code: "invalid_request") }
                revoke(user: body.user, clientID: body.client_id)
                return .json(["state": "revoked"])
            },
        ]
    }

    func publishedKeys() -> JWKSet {
        let extra = ledger.withLock { ledger in
            ledger.keyFetches += 1
            return ledger.extraKeys
        }
        let keys = ([JWK(rsa: signingKey.publicKey, kid: keyID)] + extra).map { key in
            var key = key
            key.alg = "RS256"
            key.use = "sig"
            return key
        }
        return JWKSet(keys: keys)
    }

    /// Authorizes `request.clientID` for the Apple ID: what the device's Sign in with Apple sheet obtains from Apple.
    public func authorize(_ request: AuthorizationRequest) throws(Refusal) -> Authorization {
        guard configuration.clientIDs.isEmpty || configuration.clientIDs.contains(request.clientID) else {
            throw .unknownClient(request.clientID)
        }
        let issuedAt = now()
        let code = "c." + SecureRandom.bytes(count: 24).base64URLEncodedString()
        let wantsName = request.scopes.contains("full_name"), wantsEmail = request.scopes.contains("email")
        let (subject, link, firstTime) = ledger.withLock { ledger in
            let subject = ledger.subject(for: request.appleID)
            let key = AppleIDStandInLedger.linkKey(clientID: request.clientID, subject: subject)
            var link = ledger.links[key] ?? AppleIDStandInLedger.Link(
                relayEmail: SecureRandom.bytes(count: 8).hexString + "@privaterelay.appleid.com")
            let firstTime = !link.sharedProfile || !link.authorized
            if firstTime, wantsEmail {
                link.email = request.shareRealEmail ? request.appleID : link.relayEmail
                link.isPrivateEmail = !request.shareRealEmail
            }
            link.authorized = true
            link.sharedProfile = true
            ledger.links[key] = link
            ledger.codes[code] = AppleIDStandInLedger.Code(subject: subject, clientID: request.clientID,
                                                          expires: issuedAt.addingTimeInterval(configuration.codeLifetime))
            return (subject, link, firstTime)
        }
        let local = request.appleID.split(separator: "@").first.map(String.init) ?? request.appleID
        let name = Authorization.Name(givenName: request.givenName ?? local.capitalized,
                                      familyName: request.familyName ?? "Appleseed")
        return Authorization(
            user: subject, identityToken: identityToken(subject: subject, clientID: request.clientID, nonce: request.nonce,
                                                        link: link, at: issuedAt),
            authorizationCode: code, email: firstTime && wantsEmail ? link.email : nil,
            fullName: firstTime && wantsName ? name : nil, realUserStatus: 2, state: request.state,
            authorizedScopes: firstTime ? request.scopes.filter { $0 == "full_name" || $0 == "email" } : [])
    }

    func identityToken(subject: String, clientID: String, nonce: String?, link: AppleIDStandInLedger.Link,
                       at issuedAt: Date) -> String {
        var extra: [String: JSONValue] = ["auth_time": .integer(Int64(issuedAt.timeIntervalSince1970)),
                                          "nonce_supported": .bool(true), "real_user_status": .integer(2)]
        if let nonce { extra["nonce"] = .string(nonce) }
        if let email = link.email {
            extra["email"] = .string(email)
            extra["email_verified"] = .string("true")
            extra["is_private_email"] = .string(link.isPrivateEmail ? "true" : "false")
        }
        let claims = JWTClaims(iss: configuration.issuer, sub: subject, aud: [clientID],
                               exp: issuedAt.addingTimeInterval(configuration.identityTokenLifetime), iat: issuedAt,
                               extra: extra)
        // Signing with a key made at start and claims built here cannot fail; an empty token would be refused anyway.
        return (try? JWT.sign(claims: claims, header: JWSHeader(alg: .RS256, kid: keyID), key: .rsa(signingKey))) ?? ""
    }

    /// `authorized`, `revoked` or `notFound`: what `ASAuthorizationAppleIDProvider.credentialState` learns.
    public func credentialState(user: String, clientID: String) -> String {
        ledger.withLock { ledger in
            guard let link = ledger.links[AppleIDStandInLedger.linkKey(clientID: clientID, subject: user)] else {
                return "notFound"
            }
            return link.authorized ? "authorized" : "revoked"
        }
    }

    /// The user stops using Sign in with Apple with the app (Settings › Apple ID › Sign in with Apple): its state is
    /// `revoked` and its tokens stop working; the next authorization shares name and email again.
    public func revoke(user: String, clientID: String) {
        ledger.withLock { ledger in
            let key = AppleIDStandInLedger.linkKey(clientID: clientID, subject: user)
            ledger.links[key]?.authorized = false
            ledger.tokens = ledger.tokens.filter { $0.value != key }
        }
    }

    // MARK: Apple's server endpoints

    struct TokenReply: Encodable {
        var access_token: String
        var token_type = "Bearer"
        var expires_in = 3600
        var refresh_token: String?
        var id_token: String
    }

    func clientIsValid(_ form: [String: String]) -> Bool {
        guard let clientID = form["client_id"], let secret = form["client_secret"],
              configuration.clientIDs.isEmpty || configuration.clientIDs.contains(clientID) else { return false }
        guard !configuration.teamKeys.isEmpty else {
            // No team keys configured: the secret's signature cannot be checked; it must still name the client.
            guard let payload = secret.split(separator: ".").dropFirst().first,
                  let claims = Data(base64URLEncoded: String(payload)).flatMap({ try? JWTClaims(json: $0) }) else { return false }
            return claims.sub == clientID
        }
        return configuration.teamKeys.contains { team in
            let options = JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: team.teamID,
                                               audiences: ["https://appleid.apple.com"], now: now())
            guard let jwt = try? JWT.verify(secret, key: .p256(team.publicKey), options: options) else { return false }
            return jwt.header.kid == team.keyID && jwt.claims.sub == clientID
        }
    }

    func tokenEndpoint(_ request: HTTPRequest) -> HTTPResponse {
        let form = (try? request.decodeForm()) ?? [:]
        guard clientIsValid(form), let clientID = form["client_id"] else { return .error(status: 401, code: "invalid_client") }
        let issuedAt = now()
        let access = "a." + SecureRandom.bytes(count: 24).base64URLEncodedString()
        switch form["grant_type"] {
        case "authorization_code":
            let refresh = "r." + SecureRandom.bytes(count: 24).base64URLEncodedString()
            let granted = ledger.withLock { ledger -> (String, AppleIDStandInLedger.Link)? in
                guard let code = form["code"], let grant = ledger.codes.removeValue(forKey: code),
                      grant.clientID == clientID, grant.expires > issuedAt else { return nil }
                let key = AppleIDStandInLedger.linkKey(clientID: clientID, subject: grant.subject)
                guard let link = ledger.links[key], link.authorized else { return nil }
                ledger.tokens[refresh] = key
                ledger.tokens[access] = key
                return (grant.subject, link)
            }
            guard let (subject, link) = granted else { return .error(status: 400, code: "invalid_grant") }
            return .json(TokenReply(access_token: access, refresh_token: refresh, id_token: identityToken(
                subject: subject, clientID: clientID, nonce: nil, link: link, at: issuedAt)))
        case "refresh_token":
            let granted = ledger.withLock { ledger -> (String, AppleIDStandInLedger.Link)? in
                guard let token = form["refresh_token"], let key = ledger.tokens[token], key.hasPrefix(clientID + "|"),
                      let link = ledger.links[key], link.authorized else { return nil }
                ledger.tokens[access] = key
                return (String(key.dropFirst(clientID.count + 1)), link)
            }
            guard let (subject, link) = granted else { return .error(status: 400, code: "invalid_grant") }
            return .json(TokenReply(access_token: access, refresh_token: nil, id_token: identityToken(
                subject: subject, clientID: clientID, nonce: nil, link: link, at: issuedAt)))
        default:
            return .error(status: 400, code: "unsupported_grant_type")
        }
    }

    func revokeEndpoint(_ request: HTTPRequest) -> HTTPResponse {
        let form = (try? request.decodeForm()) ?? [:]
        guard clientIsValid(form), let clientID = form["client_id"] else { return .error(status: 401, code: "invalid_client") }
        let token = form["token"] ?? ""
        ledger.withLock { ledger in
            var revocation = Revocation(clientID: clientID, token: token, tokenTypeHint: form["token_type_hint"])
            if let key = ledger.tokens[token], key.hasPrefix(clientID + "|") {
                revocation.user = String(key.dropFirst(clientID.count + 1))
                ledger.links[key]?.authorized = false
                ledger.tokens = ledger.tokens.filter { $0.value != key }
            }
            ledger.revocations.append(revocation)
        }
        // Apple answers 200 whether or not it knew the token.
        return HTTPResponse(status: 200)
    }
}
