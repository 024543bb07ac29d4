import Foundation
import LatchkeyTestSupport
import Testing

/// The property lists an Apple platform reads, parsed by Foundation: the client products' privacy manifest as the build
/// ships it (a resource of LatchkeySupport, which every client product links; scripts/check-privacy.py holds its
/// declarations to the code), and the example app's privacy manifest and entitlements, consistent with its
/// Package.swift and with what this package compiles of it.
@Suite("Privacy manifest and the example app's Apple files", .offCooperativePool)
struct AppleBundleFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/SecureNotes.swiftpm")

    static func propertyList(_ url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// The resource bundle SwiftPM builds for LatchkeySupport, beside the test binary: `Latchkey_LatchkeySupport.resources`
    /// on Linux, `.bundle` (its files in `Contents/Resources` on macOS) on Apple platforms.
    static func builtResource(_ name: String) -> URL? {
        let binary = URL(fileURLWithPath: ChildProcess.testBinary).resolvingSymlinksInPath()
        var directory = binary.deletingLastPathComponent()
        for _ in 0..<4 {
            for bundle in ["Latchkey_LatchkeySupport.resources", "Latchkey_LatchkeySupport.bundle",
                           "Latchkey_LatchkeySupport.bundle/Contents/Resources"] {
                let url = directory.appendingPathComponent(bundle).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    @Test func theClientProductsManifestShipsWithTheBuild() throws {
        let source = Self.root.appendingPathComponent("Sources/LatchkeySupport/PrivacyInfo.xcprivacy")
        let built = try #require(Self.builtResource("PrivacyInfo.xcprivacy"), "no LatchkeySupport resource bundle was built")
        #expect(try Data(contentsOf: built) == Data(contentsOf: source))
        let manifest = try Self.propertyList(built)
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        #expect((manifest["NSPrivacyAccessedAPITypes"] as? [Any])?.isEmpty == true, "the client products call none")
    }

    @Test func theExampleDeclaresItsUserDefaultsAndTheDataItSends() throws {
        let manifest = try Self.propertyList(Self.example.appendingPathComponent("App/PrivacyInfo.xcprivacy"))
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let accessed = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        #expect(accessed.count == 1)
        #expect(accessed.first?["NSPrivacyAccessedAPIType"] as? String == "NSPrivacyAccessedAPICategoryUserDefaults")
        #expect(accessed.first?["NSPrivacyAccessedAPITypeReasons"] as? [String] == ["CA92.1"])
        let collected = try #require(manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        #expect(Set(collected.compactMap { $0["NSPrivacyCollectedDataType"] as? String })
                == ["NSPrivacyCollectedDataTypeUserID", "NSPrivacyCollectedDataTypeEmailAddress",
                    "NSPrivacyCollectedDataTypeName"])
        for entry in collected {
            #expect(entry["NSPrivacyCollectedDataTypeLinked"] as? Bool == true)
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
            #expect(entry["NSPrivacyCollectedDataTypePurposes"] as? [String]
                    == ["NSPrivacyCollectedDataTypePurposeAppFunctionality"])
        }
    }

    /// The entitlements passkeys, Sign in with Apple and keychain sharing need, for the bundle identifier the example's
    /// Package.swift gives; its Face ID purpose string; the folder this package compiles as SecureNotesExampleCore is
    /// the example's SecureNotesCore, and its dependency is this package.
    @Test func theExamplesEntitlementsAndManifestAgree() throws {
        let manifest = try String(contentsOf: Self.example.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Regex from raw strings, not literals: the repository's source checkers lex Swift without regex literals.
        let bundleID = try #require(manifest.firstMatch(of: try Regex(#"bundleIdentifier: "([^"]+)""#))?[1].substring)
            .description
        let entitlements = try Self.propertyList(Self.example.appendingPathComponent("SecureNotes.entitlements"))
        let domains = try #require(entitlements["com.apple.developer.associated-domains"] as? [String])
        #expect(!domains.isEmpty && domains.allSatisfy { $0.hasPrefix("webcredentials:") && !$0.contains("/") })
        #expect(entitlements["com.apple.developer.applesignin"] as? [String] == ["Default"])
        #expect(entitlements["keychain-access-groups"] as? [String] == ["$(AppIdentifierPrefix)\(bundleID)"])
        #expect(manifest.contains(".faceID(purposeString:"))
        #expect(manifest.contains(#".package(name: "Latchkey", path: "../..")"#))
        #expect(manifest.contains(#"name: "SecureNotesCore""#) && manifest.contains(#"path: "SecureNotesCore""#))

        let root = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(root.contains(#"path: "Examples/SecureNotes.swiftpm/SecureNotesCore""#))
        #expect(root.contains(#"name: "Latchkey","#), "the example depends on this package by that name")
        // Target names are unique across a package graph: the example's may not be this package's.
        let targetName = try Regex(#"\.(?:executableT|t)arget\(\s*name: "([^"]+)""#)
        let targets = manifest.matches(of: targetName).compactMap { $0[1].substring.map(String.init) }
        #expect(targets == ["SecureNotesCore", "AppModule"])
        for name in targets {
            #expect(!root.contains(#"name: "\#(name)""#), "\(name) is also a target of this package")
        }
    }
}
