// swift-tools-version: 6.0
// The secure-notes app of the tutorials, on Latchkey: an App Playground package. Open this folder in Xcode (16 or
// later, on a Mac) and run the SecureNotes scheme on an iPhone simulator or a device; see README.md for the server, the
// signing team, and what passkeys and Sign in with Apple need (entitlements, an associated domain).
//
// The app's logic is SecureNotesCore (no SwiftUI): the Latchkey package compiles that folder as well, and its Linux
// tests run it against a real `latchkey serve`. App/ holds the SwiftUI views, nothing else.
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "SecureNotes",
    platforms: [.iOS("17.0")],
    products: [
        .iOSApplication(
            name: "SecureNotes",
            targets: ["AppModule"],
            bundleIdentifier: "com.example.SecureNotes",
            teamIdentifier: "",
            displayVersion: "1.0",
            bundleVersion: "1",
            appIcon: .placeholder(icon: .note),
            accentColor: .presetColor(.indigo),
            supportedDeviceFamilies: [.pad, .phone],
            supportedInterfaceOrientations: [
                .portrait,
                .landscapeRight,
                .landscapeLeft,
                .portraitUpsideDown(.when(deviceFamilies: [.pad])),
            ],
            capabilities: [
                // NSFaceIDUsageDescription: without it, the system does not let the app use Face ID.
                .faceID(purposeString: "Face ID unlocks your notes and opens locked notes."),
                // NSAllowsLocalNetworking: plain http:// to a development server on this Mac or the local network.
                .appTransportSecurity(configuration: .init(allowsLocalNetworking: true)),
            ],
            appCategory: .productivity
        ),
    ],
    dependencies: [
        // The Latchkey package this example lives in (the clone's root).
        .package(name: "Latchkey", path: "../.."),
    ],
    targets: [
        .target(
            name: "SecureNotesCore",
            dependencies: [
                .product(name: "Latchkey", package: "Latchkey"),
                .product(name: "LatchkeyCrypto", package: "Latchkey"),
            ],
            path: "SecureNotesCore"
        ),
        .executableTarget(
            name: "AppModule",
            dependencies: [
                "SecureNotesCore",
                .product(name: "Latchkey", package: "Latchkey"),
                .product(name: "LatchkeyUI", package: "Latchkey"),
            ],
            path: "App",
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
