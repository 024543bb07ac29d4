import Foundation
import LatchkeyCrypto

/// What the Apple ID stand-in remembers: user identifiers per Apple ID, each app's authorization of each user (and
/// whether name and email were already shared), single-use codes, and the tokens it issued.
struct AppleIDStandInLedger {
    struct Link {
        var authorized = true
        var sharedProfile = false
        var relayEmail: String
        var email: String?
        var isPrivateEmail = true
    }

    struct Code {
        var subject: String
        var clientID: String
        var expires: Date
    }

    /// Apple ID → `sub`.
    var subjects: [String: String] = [:]
    /// "clientID|sub" → the app's authorization of that user.
    var links: [String: Link] = [:]
    var codes: [String: Code] = [:]
    /// Refresh and access tokens → "clientID|sub".
    var tokens: [String: String] = [:]
    var revocations: [AppleIDStandIn.Revocation] = []
    var keyFetches = 0
    var extraKeys: [JWK] = []

    static func linkKey(clientID: String, subject: String) -> String { clientID + "|" + subject }

    /// The stable `sub` of `appleID` (Apple's shape: `000123.<32 hex>.0123`).
    mutating func subject(for appleID: String) -> String {
        if let known = subjects[appleID] { return known }
        let random = SecureRandom.bytes(count: 20).hexString
        let made = "00\(random.prefix(4)).\(random.dropFirst(4).prefix(32)).\(random.suffix(4))"
        subjects[appleID] = made
        return made
    }
}
