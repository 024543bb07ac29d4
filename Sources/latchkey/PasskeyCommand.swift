import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Latchkey
import LatchkeyWebAuthn

/// `latchkey passkey register|login`: the terminal as a passkey client of `latchkey serve`. The passkey's
/// private key lives in the user's FileVault (opened as `latchkey keychain` opens it: login keyring,
/// `--passphrase-fd N`, or a prompt); the signed-in tokens are kept there too (TokenManager).
enum PasskeyCommand {
    static let usage = """
    usage: latchkey passkey register --server URL --username NAME [--vault PATH] [--passphrase-fd N]
           latchkey passkey login --server URL [--vault PATH] [--passphrase-fd N]
           latchkey passkey list --server URL [--vault PATH] [--passphrase-fd N]
           latchkey passkey rename --server URL --id ID --name NAME [--vault PATH] [--passphrase-fd N]

      register  creates an account NAME on the server with a new passkey kept in the vault, and signs in
      login     signs in with a passkey from the vault (discoverable: the server learns who from the passkey)
      list      the signed-in account's passkeys: id, name, authenticator (its FIDO metadata name when the server
                has metadata, else its AAGUID), created, last used, backup state (BE/BS flags of the latest use)
      rename    gives one of them a new name (1-64 characters)
      list and rename use the tokens of an earlier register or login with the same vault and server.
      The tokens are stored in the vault (service org.latchkey.cli.tokens, one item per server).
      Exit codes: 0 ok, 1 failure, 64 usage, 77 refused by the server or the vault did not open.
    """

    static let options: [String: KeychainArguments.Arity] = [
        "server": .value, "username": .value, "id": .value, "name": .value, "vault": .value, "backend": .value,
        "passphrase-fd": .value,
        "h": .flag, "help": .flag,
    ]

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first, ["register", "login", "list", "rename"].contains(command) else {
            if arguments.contains(where: { $0 == "-h" || $0 == "--help" || $0 == "help" }) {
                print(usage)
                return 0
            }
            return fail("\(arguments.first.map { "unknown passkey command '\($0)'" } ?? "a command is needed")\n\n\(usage)",
                        code: 64)
        }
        do {
            let parsed = try KeychainArguments(Array(arguments.dropFirst()), spec: options)
            if parsed.has("h") || parsed.has("help") {
                print(usage)
                return 0
            }
            let serverText = try parsed.required("server", what: "the server URL")
            guard let server = URL(string: serverText), server.scheme == "http" || server.scheme == "https",
                  server.host != nil else {
                throw KeychainArguments.UsageError(message: "--server needs an http(s) URL")
            }
            let username = command == "register" ? try parsed.required("username", what: "a user name") : nil
            let rename: (id: String, name: String)? = command == "rename"
                ? (id: try parsed.required("id", what: "the passkey id"), name: try parsed.required("name", what: "a new name"))
                : nil
            // Passkey ids are base64url: anything else is no id (and must not reach the URL path).
            if let id = rename?.id, id.isEmpty || !id.unicodeScalars.allSatisfy(Self.base64URLCharacters.contains) {
                throw KeychainArguments.UsageError(message: "--id needs a passkey id as `latchkey passkey list` shows it")
            }
            let store = try KeychainVaultAccess(arguments: parsed).openStore()
            if command == "list" || command == "rename" {
                switch blocking({ await manage(server: server, store: store, rename: rename) }) {
                case .success(let text):
                    print(text, terminator: "")
                    return 0
                case .failure(let message, let code):
                    return fail(message, code: code)
                case nil:
                    return fail("the request did not finish", code: 1)
                }
            }
            let outcome = blocking { await ceremony(server: server, username: username, store: store) }
            switch outcome {
            case .success(let name):
                print(command == "register" ? "registered a passkey; signed in as \(name)" : "signed in as \(name)")
                return 0
            case .failure(let message, let code):
                return fail(message, code: code)
            case nil:
                return fail("the passkey ceremony did not finish", code: 1)
            }
        } catch let error as KeychainArguments.UsageError {
            return fail("\(error.message)\n\n\(usage)", code: 64)
        } catch let error as KeychainStoreError {
            return fail(error.localizedDescription, code: 77)
        } catch {
            return fail(error.localizedDescription, code: 1)
        }
    }

    enum Outcome: Sendable {
        case success(String)
        case failure(String, Int32)
    }

    static func ceremony(server: URL, username: String?, store: any ItemStore) async -> Outcome {
        let authenticator = SoftwareAuthenticator(store: KeychainPasskeyStore(store: store))
        let client = PasskeyClient(baseURL: server, ceremony: authenticator)
        let grant: TokenGrant
        do {
            if let username {
                let result = try await client.register(username: username)
                guard let tokens = result.tokens else { return .failure("the server returned no tokens", 1) }
                grant = tokens
            } else {
                grant = try await client.signIn()
            }
        } catch {
            if case .rejected = error { return .failure(error.localizedDescription, 77) }
            return .failure(error.localizedDescription, 1)
        }
        let tokens = AuthTokens(accessToken: grant.accessToken, refreshToken: grant.refreshToken,
                                expiresAt: Date().addingTimeInterval(grant.expiresIn ?? 300), tokenType: grant.tokenType,
                                scope: grant.scope)
        let manager = tokenManager(server: server, origin: client.origin, store: store)
        do { try await manager.store(tokens) } catch {
            return .failure(error.localizedDescription, 1)
        }
        guard let name = await accountName(server: server, accessToken: grant.accessToken) else {
            return .failure("signed in, but /v1/me did not answer", 1)
        }
        return .success(name)
    }

    static let base64URLCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    static func tokenManager(server: URL, origin: String, store: any ItemStore) -> TokenManager {
        TokenManager(storage: KeychainTokenStorage(service: "org.latchkey.cli.tokens", store: store, key: origin),
                     refresher: OAuthTokenRefresher(tokenEndpoint: server.appendingPathComponent("v1/token")))
    }

    /// `list` (rename nil) or `rename`, with the vault's tokens for `server`; the text to print.
    static func manage(server: URL, store: any ItemStore, rename: (id: String, name: String)?) async -> Outcome {
        let client = PasskeyClient(baseURL: server, ceremony: SoftwareAuthenticator(store: KeychainPasskeyStore(store: store)))
        let tokens: AuthTokens
        do { tokens = try await tokenManager(server: server, origin: client.origin, store: store).validTokens() } catch {
            return .failure("not signed in to \(client.origin) (run latchkey passkey login first): \(error.localizedDescription)", 77)
        }
        do {
            if let rename {
                let renamed = try await client.rename(passkeyID: rename.id, to: rename.name, accessToken: tokens.accessToken)
                return .success("renamed \(renamed.id) to \(renamed.name)\n")
            }
            return .success(listing(try await client.passkeys(accessToken: tokens.accessToken)))
        } catch {
            if case .rejected = error { return .failure(error.localizedDescription, 77) }
            return .failure(error.localizedDescription, 1)
        }
    }

    /// One block per passkey: the name and id, then what the server knows of it.
    static func listing(_ passkeys: [PasskeyInfo]) -> String {
        guard !passkeys.isEmpty else { return "no passkeys\n" }
        return passkeys.map { key in
            """
            \(key.name)  (id \(key.id))
              authenticator: \(key.authenticator ?? "unknown")
              created:       \(key.createdAt)
              last used:     \(key.lastUsedAt ?? "never")
              backup:        \(key.backupDescription)

            """
        }.joined()
    }

    /// `username` of `GET /v1/me`.
    static func accountName(server: URL, accessToken: String) async -> String? {
        var request = URLRequest(url: server.appendingPathComponent("v1/me"))
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        guard let (data, response) = try? await URLSession.shared.data(for: request),
              (response as? HTTPURLResponse)?.statusCode == 200,
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return object["username"] as? String
    }

    static func fail(_ message: String, code: Int32) -> Int32 {
        FileHandle.standardError.write(Data("latchkey passkey: \(message)\n".utf8))
        return code
    }
}
