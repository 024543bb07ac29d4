import Foundation
import LatchkeyCrypto

/// An app as Apple names it in associated-domain files and entitlements: its application identifier,
/// `<Team ID>.<bundle ID>` (`A1B2C3D4E5.com.example.notes`).
///
/// The team ID is the ten upper-case letters and digits of the developer's team (Membership details in the Apple
/// Developer account). The bundle ID is the app's `CFBundleIdentifier`: letters, digits, hyphens and periods, in
/// reverse-DNS parts none of which is empty.
public struct AppleAppID: Sendable, Hashable, CustomStringConvertible {
    /// The ten-character team ID.
    public let teamID: String
    /// The bundle ID.
    public let bundleID: String

    /// The length of every team ID.
    public static let teamIDLength = 10

    /// `text` as an application identifier, or why it is not one.
    public init(_ text: String) throws(AppleAppIDError) {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex else { throw .notAnAppID(text) }
        let team = String(text[..<dot])
        let bundle = String(text[text.index(after: dot)...])
        guard team.utf8.count == Self.teamIDLength,
              team.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
            throw .invalidTeamID(team)
        }
        guard !bundle.isEmpty, bundle.utf8.allSatisfy(Self.isBundleIDByte),
              !bundle.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw .invalidBundleID(bundle)
        }
        teamID = team
        bundleID = bundle
    }

    /// `TEAMID.bundle.id`.
    public var description: String { teamID + "." + bundleID }

    /// A–Z, a–z, 0–9, hyphen and period: the characters Apple allows in a bundle ID.
    static func isBundleIDByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

/// Why a text is not an application identifier (`TEAMID.bundle.id`).
public enum AppleAppIDError: Error, Sendable, Equatable {
    /// No team ID and bundle ID separated by a period.
    case notAnAppID(String)
    /// The part before the first period is not ten upper-case letters and digits.
    case invalidTeamID(String)
    /// The bundle ID has a character other than letters, digits, hyphens and periods, or an empty part.
    case invalidBundleID(String)
}

extension AppleAppIDError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in `language` (the value is an app's public identifier, never a secret, so it is quoted).
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .notAnAppID(let text):
            language.pick(english: "“\(text)” is not an app ID: write TEAMID.bundle.id, the team ID, a period and the "
                              + "bundle ID (A1B2C3D4E5.com.example.notes).",
                          korean: "“\(text)”은(는) 앱 ID가 아닙니다. 팀 ID, 마침표, 번들 ID 순서로 TEAMID.bundle.id 형식으로 "
                              + "쓰세요 (A1B2C3D4E5.com.example.notes).")
        case .invalidTeamID(let team):
            language.pick(english: "“\(team)” is not a team ID: it has \(AppleAppID.teamIDLength) characters, upper-case "
                              + "letters and digits (your Apple Developer account's Membership details).",
                          korean: "“\(team)”은(는) 팀 ID가 아닙니다. 팀 ID는 대문자와 숫자 \(AppleAppID.teamIDLength)자입니다 "
                              + "(Apple Developer 계정의 멤버십 정보).")
        case .invalidBundleID(let bundle):
            language.pick(english: "“\(bundle)” is not a bundle ID: use letters, digits, hyphens and periods, with no empty "
                              + "part (com.example.notes).",
                          korean: "“\(bundle)”은(는) 번들 ID가 아닙니다. 문자, 숫자, 하이픈, 마침표만 쓰고 빈 부분이 없어야 "
                              + "합니다 (com.example.notes).")
        }
    }
}
