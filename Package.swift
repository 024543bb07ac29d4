// swift-tools-version:6.0
// Latchkey — Keychain, device authentication, tokens and passkeys for Swift on Linux and Apple platforms.
// Every dependency is the Swift toolchain or a C library from the operating system (Debian packages on Linux).
import PackageDescription

let linux: [Platform] = [.linux]

// Swift 6 language mode (complete strict concurrency) for every target; warnings are treated as bugs.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

var products: [Product] = [
    .library(name: "Latchkey", targets: ["Latchkey"]),
    .library(name: "LatchkeyCrypto", targets: ["LatchkeyCrypto"]),
    .library(name: "LatchkeyKeychain", targets: ["LatchkeyKeychain"]),
    .library(name: "LatchkeyAuth", targets: ["LatchkeyAuth"]),
    .library(name: "LatchkeyServer", targets: ["LatchkeyServer"]),
    .library(name: "LatchkeyWebAuthn", targets: ["LatchkeyWebAuthn"]),
    .executable(name: "latchkey", targets: ["latchkey"]),
    .executable(name: "latchkey-bench", targets: ["latchkey-bench"]),
]

var targets: [Target] = [
    // C system libraries (pkg-config names; Debian packages as providers).
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl",
                   providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium",
                   providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                   providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(name: "CPostgres", pkgConfig: "libpq",
                   providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                   providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
    .systemLibrary(name: "CPAM", pkgConfig: "pam",
                   providers: [.apt(["libpam0g-dev"])]),
    // libsecret without pkg-config: its .pc adds `-pthread`, which SwiftPM rejects with a warning on every
    // build. Sources/CSecret/shim.h declares the few functions used and the module map links them by name.
    .systemLibrary(name: "CSecret", providers: [.apt(["libsecret-1-dev"])]),
    .systemLibrary(name: "CKeyutils", pkgConfig: "libkeyutils",
                   providers: [.apt(["libkeyutils-dev"])]),

    // Layer 0: portable basics every module shares (messages in English and Korean, the log hook, the one lock
    // type, base64url and hex). Foundation only.
    .target(name: "LatchkeySupport", swiftSettings: strict),

    // Layer 1: cryptography (wrappers only) and JOSE / CBOR / COSE.
    .target(name: "LatchkeyCrypto",
            dependencies: ["LatchkeySupport", "COpenSSL", "CSodium"],
            swiftSettings: strict),

    // WebAuthn data model shared by the relying party (server) and the client/software authenticator.
    .target(name: "LatchkeyWebAuthn",
            dependencies: ["LatchkeyCrypto"],
            swiftSettings: strict),

    // Layer 2: device-owner authentication, and the item store (which asks an authentication context).
    // Each is a portable core (model, rules, simulator; model, dictionaries, memory store), a Linux backend
    // (PAM; FileVault, Secret Service, OS key providers) and the product module that re-exports the core with
    // the platform's backend.
    .target(name: "LatchkeyAuthCore",
            dependencies: ["LatchkeySupport", "LatchkeyCrypto"],
            swiftSettings: strict),
    .target(name: "LatchkeyAuthLinux",
            dependencies: ["LatchkeyAuthCore", .target(name: "CPAM", condition: .when(platforms: linux))],
            swiftSettings: strict),
    .target(name: "LatchkeyAuth",
            dependencies: ["LatchkeyAuthCore", .target(name: "LatchkeyAuthLinux", condition: .when(platforms: linux))],
            swiftSettings: strict),
    .target(name: "LatchkeyKeychainCore",
            dependencies: ["LatchkeySupport", "LatchkeyCrypto", "LatchkeyAuthCore"],
            swiftSettings: strict),
    .target(name: "LatchkeyKeychainLinux",
            dependencies: ["LatchkeyKeychainCore", "LatchkeyCrypto",
                           .target(name: "CSQLite", condition: .when(platforms: linux)),
                           .target(name: "CSecret", condition: .when(platforms: linux)),
                           .target(name: "CKeyutils", condition: .when(platforms: linux))],
            swiftSettings: strict),
    .target(name: "LatchkeyKeychain",
            dependencies: ["LatchkeyKeychainCore", "LatchkeyAuth",
                           .target(name: "LatchkeyKeychainLinux", condition: .when(platforms: linux))],
            swiftSettings: strict),

    // Layer 3: the app-facing kit and the verifying server.
    .target(name: "Latchkey",
            dependencies: ["LatchkeyCrypto", "LatchkeyKeychain", "LatchkeyAuth", "LatchkeyWebAuthn"],
            swiftSettings: strict),
    .target(name: "LatchkeyServer",
            dependencies: ["LatchkeyCrypto", "LatchkeyWebAuthn", "CSQLite", "CPostgres", "CMicroHTTPD"],
            resources: [.copy("Resources")],
            swiftSettings: strict),

    // Layer 4: the command-line tool and the benchmarks.
    .executableTarget(name: "latchkey",
                      dependencies: ["Latchkey", "LatchkeyServer"],
                      swiftSettings: strict),
    .executableTarget(name: "latchkey-bench",
                      dependencies: ["Latchkey", "LatchkeyServer", "COpenSSL", "CSodium", "CSQLite", "CMicroHTTPD"],
                      swiftSettings: strict),

    .testTarget(name: "LatchkeyCryptoTests", dependencies: ["LatchkeyCrypto"],
                resources: [.copy("Vectors")], swiftSettings: strict),
    .testTarget(name: "LatchkeyWebAuthnTests", dependencies: ["LatchkeyWebAuthn"], swiftSettings: strict),
    .testTarget(name: "LatchkeyAuthTests", dependencies: ["LatchkeyAuth", "LatchkeyAuthCore", "LatchkeyAuthLinux"], swiftSettings: strict),
    .testTarget(name: "LatchkeyKeychainTests", dependencies: ["LatchkeyKeychain", "LatchkeyKeychainCore", "LatchkeyKeychainLinux", "LatchkeyAuth"],
                swiftSettings: strict),
    .testTarget(name: "LatchkeyTests", dependencies: ["Latchkey"], swiftSettings: strict),
    .testTarget(name: "LatchkeyServerTests", dependencies: ["LatchkeyServer", "Latchkey", "LatchkeyFuzzTargets"],
                swiftSettings: strict),
]

// Apple-framework names on Linux. On Apple platforms the system frameworks are used instead,
// so these targets do not exist there.
#if os(Linux)
products += [
    .library(name: "Security", targets: ["Security"]),
    .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
]
targets += [
    .target(name: "LocalAuthentication", dependencies: ["LatchkeyAuthCore", "LatchkeyAuthLinux"], swiftSettings: strict),
    .target(name: "Security", dependencies: ["LatchkeyKeychainCore", "LatchkeyKeychainLinux", "LatchkeyAuthCore",
                                            "LatchkeyCrypto", "LocalAuthentication"],
            swiftSettings: strict),
    .testTarget(name: "CompatibilityTests", dependencies: ["Security", "LocalAuthentication"]),
    // The Keychain Services conformance table (docs/conformance/*.tsv, read by path) run against every Linux store.
    .testTarget(name: "KeychainConformanceTests",
                dependencies: ["Security", "LocalAuthentication", "LatchkeyKeychainCore", "LatchkeyKeychainLinux",
                               "LatchkeyAuthCore", "LatchkeySupport"],
                swiftSettings: strict),
]
#endif

// Fuzzing (issue 14): the fuzz entries are a plain library, so the regression replay in LatchkeyServerTests
// runs them in `make test`; the libFuzzer driver exists only when LATCHKEY_FUZZ=1 (scripts/fuzz.sh builds it
// with -sanitize=fuzzer,address into .build/fuzz), so `swift build` and `swift test` never build it.
targets += [
    .target(name: "LatchkeyFuzzTargets",
            dependencies: ["LatchkeyCrypto", "LatchkeyWebAuthn", "LatchkeyKeychain", "LatchkeyServer", "CSQLite"],
            path: "Tests/Fuzz/Targets", swiftSettings: strict),
]
if Context.environment["LATCHKEY_FUZZ"] == "1" {
    products.append(.executable(name: "latchkey-fuzz", targets: ["latchkey-fuzz"]))
    targets.append(.executableTarget(name: "latchkey-fuzz", dependencies: ["LatchkeyFuzzTargets"],
                                     path: "Tests/Fuzz/Driver", swiftSettings: strict))
}

let package = Package(
    name: "Latchkey",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
