import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychainLinux

/// Where a Linux program's application identifier (the default access group) comes from.
@Suite(.offCooperativePool) struct ApplicationIdentityTests {
    @Test func theEnvironmentComesFirst() throws {
        let dir = TempDir()
        let bundle = try #require(try Self.bundle(in: dir, identifier: "com.example.plist"))
        let identity = ApplicationIdentity.current(environment: ["LATCHKEY_APPLICATION_IDENTIFIER": "TEAM1.com.example.app"], bundle: bundle)
        #expect(identity.identifier == "TEAM1.com.example.app" && identity.source == .environment)
        #expect(identity.bundleIdentifier == "com.example.plist", "Bundle.main still answers from its Info.plist")
        #expect(identity.description == "TEAM1.com.example.app (from LATCHKEY_APPLICATION_IDENTIFIER)")
    }

    @Test func anInfoPlistBesideTheExecutableGivesTheBundleIdentifier() throws {
        let dir = TempDir()
        let bundle = try #require(try Self.bundle(in: dir, identifier: "com.example.plist"))
        #expect(bundle.bundleIdentifier == "com.example.plist", "Foundation reads CFBundleIdentifier from <dir>/Info.plist")
        let identity = ApplicationIdentity.current(environment: ["LATCHKEY_APPLICATION_IDENTIFIER": ""], bundle: bundle)
        #expect(identity.identifier == "com.example.plist")
        #expect(identity.source == .infoPlist(path: dir.file("Info.plist").path))
    }

    @Test func otherwiseTheProcessName() throws {
        let dir = TempDir()
        let bare = try #require(Bundle(path: dir.url.path))
        let identity = ApplicationIdentity.current(environment: [:], bundle: bare)
        #expect(identity.identifier == ProcessInfo.processInfo.processName && identity.source == .processName)
        #expect(identity.bundleIdentifier == nil)
    }

    static func bundle(in dir: TempDir, identifier: String) throws -> Bundle? {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>\(identifier)</string></dict></plist>
            """
        try Data(plist.utf8).write(to: dir.file("Info.plist"))
        return Bundle(path: dir.url.path)
    }
}
