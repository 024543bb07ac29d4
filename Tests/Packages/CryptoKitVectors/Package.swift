// swift-tools-version:6.0
// CryptoKitVectors — an ordinary app-style package that uses only `import CryptoKit` (plus Foundation and
// Swift Testing), written exactly as it would be on macOS. On Linux the `CryptoKit` it imports is Latchkey's
// (this repository's root package, by path); on Apple platforms it is the system framework, so the same sources
// and tests run against both. Its tests check the module against published test vectors (see README.md). Run with scripts/cryptokit-vectors.sh.
import PackageDescription

var dependencies: [Package.Dependency] = []
var cryptoKit: [Target.Dependency] = []
#if os(Linux)
// Apple platforms have the CryptoKit framework; Linux gets the module of the same name from the root package.
dependencies.append(.package(name: "Latchkey", path: "../../.."))
cryptoKit.append(.product(name: "CryptoKit", package: "Latchkey"))
#endif

let package = Package(
    name: "CryptoKitVectors",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "SealedNotes", targets: ["SealedNotes"]),
    ],
    dependencies: dependencies,
    targets: [
        .target(name: "SealedNotes", dependencies: cryptoKit,
                swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(name: "CryptoKitVectorsTests", dependencies: ["SealedNotes"] + cryptoKit,
                    swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ],
    swiftLanguageModes: [.v6]
)
