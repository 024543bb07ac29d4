// swift-tools-version:6.0
// Latchkey — Keychain, device authentication, tokens and passkeys for Swift on Linux and Apple platforms.
//
// One API, two backends chosen at compile time (swift-crypto's shape). On Apple platforms the client products —
// Latchkey, LatchkeyKeychain, LatchkeyAuth, LatchkeyCrypto, LatchkeyWebAuthn — are built on Apple's frameworks
// (CryptoKit, Security, LocalAuthentication, CommonCrypto) and link no C library of this package. On Linux they sit
// on OpenSSL 3, libsodium, SQLite, PAM, libsecret and libkeyutils (Debian packages), through Linux-only targets.
// The server and the command-line tool are Linux-first (on macOS they need Homebrew's libraries).
//
// The apple-frameworks build mode, `LATCHKEY_APPLE_FRAMEWORKS=1 swift build / swift test` (Linux only, run by
// `make test` in its own scratch path), compiles the client products' Apple code paths against the package's Linux
// modules named `CryptoKit`, `Security`, `LocalAuthentication`, `CommonCrypto` and `AuthenticationServices`, and runs
// the kit's tests through them. One compilation condition, LATCHKEY_APPLE_FRAMEWORKS, means "Apple's frameworks": it is
// set for the client targets on Apple platforms and in that mode, never for the Linux-only targets below them.
import PackageDescription

/// Manifests are evaluated for the host: Linux-only targets exist only in a Linux host's manifest, and every edge
/// to them is also conditioned to Linux, so no Apple-platform build can reach them.
#if os(Linux)
let linuxHost = true
#else
let linuxHost = false
#endif
let appleFrameworksMode = linuxHost && Context.environment["LATCHKEY_APPLE_FRAMEWORKS"] == "1"
let linux: [Platform] = [.linux]
let applePlatforms: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]

// Swift 6 language mode (complete strict concurrency) for every target; warnings are treated as bugs.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]
/// Client targets: the Apple-frameworks condition on Apple platforms, and everywhere in the apple-frameworks mode.
let client: [SwiftSetting] = strict + [
    appleFrameworksMode ? .define("LATCHKEY_APPLE_FRAMEWORKS")
        : .define("LATCHKEY_APPLE_FRAMEWORKS", .when(platforms: applePlatforms)),
]

/// Linux-only targets of this package as dependencies (none in a non-Linux host's manifest).
func linuxOnly(_ names: String...) -> [Target.Dependency] {
    linuxHost ? names.map { .target(name: $0, condition: .when(platforms: linux)) } : []
}

/// The platform backend of a client target: the Linux targets in the default Linux build; the package's Linux
/// modules with Apple's names in the apple-frameworks mode; nothing on Apple platforms (the SDK has the frameworks).
func backend(linux linuxNames: [String], apple appleNames: [String]) -> [Target.Dependency] {
    if appleFrameworksMode { return appleNames.map { .target(name: $0) } }
    return linuxHost ? linuxNames.map { .target(name: $0, condition: .when(platforms: linux)) } : []
}

var products: [Product] = [
    .library(name: "Latchkey", targets: ["Latchkey"]),
    .library(name: "LatchkeyUI", targets: ["LatchkeyUI"]),
    .library(name: "LatchkeyCrypto", targets: ["LatchkeyCrypto"]),
    .library(name: "LatchkeyKeychain", targets: ["LatchkeyKeychain"]),
    .library(name: "LatchkeyAuth", targets: ["LatchkeyAuth"]),
    .library(name: "LatchkeyWebAuthn", targets: ["LatchkeyWebAuthn"]),
]

var targets: [Target] = [
    // C system libraries (pkg-config names; Debian packages as providers, Homebrew for the server on macOS).
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
    // tpm2-tss: ESAPI, the TCTI loader, marshalling and response-code text (the module map links all four).
    .systemLibrary(name: "CTSS2", pkgConfig: "tss2-esys", providers: [.apt(["libtss2-dev"])]),

    // Layer 0: portable basics every module shares (messages in English and Korean, the log hook, the one lock
    // type, base64url, hex and PEM, CryptoError). Foundation only.
    // Its resource is the client products' privacy manifest: every client product links LatchkeySupport, so the manifest
    // ships with whichever an app adds (scripts/check-privacy.py holds it to the code). No code reads it (no Bundle.module).
    .target(name: "LatchkeySupport", resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict),

    // Layer 1: CryptoKit (re-exported) plus JOSE / CBOR / COSE, X.509, RSA, PBKDF2, Argon2id (Linux), over a backend
    // seam: Security and CommonCrypto, or the Linux engine.
    .target(name: "LatchkeyCrypto",
            dependencies: ["LatchkeySupport"]
                + backend(linux: ["CryptoKit", "LatchkeyOpenSSL"], apple: ["CryptoKit", "Security", "CommonCrypto"]),
            swiftSettings: client),

    // WebAuthn data model shared by the relying party (server) and the client/software authenticator.
    .target(name: "LatchkeyWebAuthn", dependencies: ["LatchkeyCrypto"], swiftSettings: client),

    // Layer 2: device-owner authentication and the item store. Each is a portable core (model, Apple's rules,
    // simulator; model, dictionaries, access gate, memory store) below the Linux facades, a Linux backend (PAM;
    // FileVault, Secret Service, OS key providers), and the product module that re-exports the core with the
    // platform's backend (AppleAuthenticationContext and AppleKeychainStore where Apple's frameworks are used).
    // On Linux its randomness, digests and MACs come from the engine, not from `CryptoKit`: the Linux `CryptoKit` sits
    // above `LocalAuthentication` (its `SecureEnclave` takes an `LAContext`, as Apple's does).
    .target(name: "LatchkeyAuthCore", dependencies: ["LatchkeySupport"] + linuxOnly("LatchkeyOpenSSL"), swiftSettings: strict),
    .target(name: "LatchkeyAuth",
            dependencies: ["LatchkeyAuthCore"]
                + backend(linux: ["LatchkeyAuthLinux"], apple: ["LocalAuthentication", "Security"]),
            swiftSettings: client),
    // The core's one use of cryptography, application-password items, derives their key with Argon2id on Linux
    // (LatchkeyOpenSSL) and PBKDF2 where Apple's frameworks are used (CommonCrypto).
    .target(name: "LatchkeyKeychainCore",
            dependencies: ["LatchkeySupport", "LatchkeyAuthCore"] + linuxOnly("CryptoKit")
                + backend(linux: ["LatchkeyOpenSSL"], apple: ["CommonCrypto"]),
            swiftSettings: client),
    .target(name: "LatchkeyKeychain",
            dependencies: ["LatchkeyKeychainCore", "LatchkeyAuth"]
                + backend(linux: ["LatchkeyKeychainLinux"], apple: ["Security", "LocalAuthentication"]),
            swiftSettings: client),

    // Layer 3: the app-facing kit. Its ASAuthorization flows (platform passkeys, Sign in with Apple) compile wherever
    // `AuthenticationServices` exists: Apple's framework, or on Linux the package's module of that name (both builds).
    .target(name: "Latchkey",
            dependencies: ["LatchkeyCrypto", "LatchkeyKeychain", "LatchkeyAuth", "LatchkeyWebAuthn"]
                + backend(linux: ["AuthenticationServices", "DeviceCheck"],
                          apple: ["Security", "LocalAuthentication", "AuthenticationServices", "DeviceCheck"]),
            swiftSettings: client),
    // SwiftUI views over the kit's screen models (Sources/Latchkey/Screens), layout only. Every file is under
    // `#if canImport(SwiftUI)`: the module is empty where SwiftUI is missing (Linux).
    .target(name: "LatchkeyUI", dependencies: ["Latchkey"], swiftSettings: client),

    // The example app's logic (Examples/SecureNotes.swiftpm/SecureNotesCore: portable, no SwiftUI). The example package
    // builds that folder for iOS as its SecureNotesCore target; here it is compiled under another name (target names
    // are unique across a package graph, and the example depends on this package) so that Linux builds it in both
    // modes and LatchkeyTests (SecureNotesExample/) runs it against a real latchkey serve. Nothing else of Examples/
    // is part of this package.
    .target(name: "SecureNotesExampleCore",
            dependencies: ["Latchkey", "LatchkeyCrypto"]
                + backend(linux: ["AuthenticationServices"], apple: ["AuthenticationServices"]),
            path: "Examples/SecureNotes.swiftpm/SecureNotesCore", swiftSettings: client),

    .testTarget(name: "LatchkeyCryptoTests",
                dependencies: ["LatchkeyCrypto", "LatchkeyTestSupport"] + backend(linux: ["LatchkeyOpenSSL", "COpenSSL"], apple: []),
                resources: [.copy("Vectors")], swiftSettings: client),
    .testTarget(name: "LatchkeyWebAuthnTests", dependencies: ["LatchkeyWebAuthn"], swiftSettings: client),
    // What the test targets share: blocking test work off the cooperative pool (`onThread`, `.offCooperativePool`).
    .target(name: "LatchkeyTestSupport", dependencies: ["LatchkeySupport"], path: "Tests/TestSupport", swiftSettings: strict),
    .testTarget(name: "LatchkeyTests",
                dependencies: ["Latchkey", "SecureNotesExampleCore", "LatchkeyTestSupport"]
                    + backend(linux: ["AuthenticationServices", "Security", "LocalAuthentication"],
                              apple: ["Security", "LocalAuthentication", "AuthenticationServices"]),
                swiftSettings: client),
]

// The Linux backends, and the Apple-framework names on Linux (on Apple platforms the system frameworks are used, so
// these targets do not exist there).
if linuxHost {
    products += [
        .library(name: "CryptoKit", targets: ["CryptoKit"]),
        .library(name: "CommonCrypto", targets: ["CommonCrypto"]),
        .library(name: "Security", targets: ["Security"]),
        .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
        .library(name: "AuthenticationServices", targets: ["AuthenticationServices"]),
        .library(name: "DeviceCheck", targets: ["DeviceCheck"]),
    ]
    targets += [
        // The Linux crypto engine: OpenSSL 3 / libsodium wrappers (package API only).
        .target(name: "LatchkeyOpenSSL", dependencies: ["LatchkeySupport", "COpenSSL", "CSodium"], swiftSettings: strict),
        // The TPM 2.0 engine under `SecureEnclave`: P-256 keys made and used in a TPM through tpm2-tss's ESAPI.
        .target(name: "LatchkeyTPM",
                dependencies: ["LatchkeySupport", "CTSS2"],
                swiftSettings: strict),
        .target(name: "LatchkeyAuthLinux",
                dependencies: ["LatchkeyAuthCore", .target(name: "CPAM", condition: .when(platforms: linux))],
                swiftSettings: strict),
        .target(name: "LatchkeyKeychainLinux",
                dependencies: ["LatchkeyKeychainCore", "CryptoKit", "LatchkeyOpenSSL",
                               .target(name: "CSQLite", condition: .when(platforms: linux)),
                               .target(name: "CSecret", condition: .when(platforms: linux)),
                               .target(name: "CKeyutils", condition: .when(platforms: linux))],
                swiftSettings: strict),
        // Apple's names over the Linux backends.
        // CryptoKit sits above LocalAuthentication as Apple's does: `SecureEnclave` keys (on the TPM engine) take an
        // `LAContext`; their `SecAccessControl` initializers are declared by `Security`, which sits above CryptoKit.
        .target(name: "CryptoKit",
                dependencies: ["LatchkeySupport", "LatchkeyOpenSSL", "LatchkeyTPM", "LatchkeyAuthCore", "LocalAuthentication"],
                swiftSettings: strict),
        .target(name: "CommonCrypto", dependencies: ["LatchkeySupport", "LatchkeyOpenSSL"], swiftSettings: strict),
        .target(name: "LocalAuthentication", dependencies: ["LatchkeyAuthCore", "LatchkeyAuthLinux"], swiftSettings: strict),
        .target(name: "Security",
                dependencies: ["LatchkeyKeychainCore", "LatchkeyKeychainLinux", "LatchkeyAuthCore", "LatchkeyOpenSSL",
                               "CryptoKit", "LocalAuthentication"],
                swiftSettings: strict),
        // ASAuthorization over a software authenticator whose passkeys live in `Security`'s keychain, the user verified
        // through `LocalAuthentication`, and a configurable stand-in for the Apple ID.
        .target(name: "AuthenticationServices",
                dependencies: ["LatchkeySupport", "LatchkeyWebAuthn", "Security", "LocalAuthentication"],
                swiftSettings: strict),
        // DCAppAttestService over `SecureEnclave` keys and a development attestation authority of the package's own
        // (its root and intermediate keys in the TPM; certificates made with OpenSSL); DCDevice answers unsupported.
        .target(name: "DeviceCheck",
                dependencies: ["CryptoKit", "LatchkeyCrypto", "LatchkeyOpenSSL", "LatchkeyKeychainLinux", "LatchkeySupport"],
                swiftSettings: strict),
    ]
}

if !appleFrameworksMode {
    // The verifying server, the command-line tool and the benchmarks: Linux-first.
    products += [
        .library(name: "LatchkeyServer", targets: ["LatchkeyServer"]),
        .executable(name: "latchkey", targets: ["latchkey"]),
        .executable(name: "latchkey-bench", targets: ["latchkey-bench"]),
    ]
    targets += [
        .target(name: "LatchkeyServer",
                dependencies: ["LatchkeyCrypto", "LatchkeyWebAuthn", "CSQLite", "CPostgres", "CMicroHTTPD"],
                resources: [.copy("Resources")],
                swiftSettings: strict),
        .executableTarget(name: "latchkey", dependencies: ["Latchkey", "LatchkeyServer"] + linuxOnly("DeviceCheck"),
                          swiftSettings: strict),
        .executableTarget(name: "latchkey-bench",
                          dependencies: ["Latchkey", "LatchkeyServer", "COpenSSL", "CSodium", "CSQLite", "CMicroHTTPD"]
                              + linuxOnly("LatchkeyTPM"),
                          swiftSettings: strict),
        .testTarget(name: "LatchkeyServerTests",
                    dependencies: ["LatchkeyServer", "Latchkey", "LatchkeyFuzzTargets", "LatchkeyTestSupport"],
                    swiftSettings: strict),
        // Fuzzing (issue 14): the fuzz entries are a plain library, so the regression replay in LatchkeyServerTests
        // runs them in `make test`; the libFuzzer driver exists only when LATCHKEY_FUZZ=1 (scripts/fuzz.sh).
        .target(name: "LatchkeyFuzzTargets",
                dependencies: ["LatchkeyCrypto", "LatchkeyWebAuthn", "LatchkeyKeychain", "LatchkeyServer", "CSQLite"],
                path: "Tests/Fuzz/Targets", swiftSettings: strict),
    ]
    if linuxHost {
        // Tests of the Linux backends and facades (these targets exist only in a Linux host's manifest).
        targets += [
            .testTarget(name: "LatchkeyAuthTests",
                        dependencies: ["LatchkeyAuth", "LatchkeyAuthCore", "LatchkeyAuthLinux", "LatchkeyTestSupport"],
                        swiftSettings: strict),
            .testTarget(name: "LatchkeyKeychainTests",
                        dependencies: ["LatchkeyKeychain", "LatchkeyKeychainCore", "LatchkeyAuth", "LatchkeyKeychainLinux",
                                       "LatchkeyOpenSSL", "LatchkeyTestSupport"],
                        swiftSettings: strict),
            .testTarget(name: "CompatibilityTests",
                        dependencies: ["Security", "LocalAuthentication", "LatchkeyKeychain", "LatchkeyAuth"]),
            // `SecureEnclave` (the Linux CryptoKit's, on a TPM) and `DeviceCheck` over it, against swtpm started by the tests.
            // Also App Attest end to end: that DeviceCheck, the kit's client and `latchkey serve` (AppAttestServer/).
            .testTarget(name: "SecureEnclaveTests",
                        dependencies: ["CryptoKit", "Security", "LocalAuthentication", "DeviceCheck", "LatchkeyAuthCore",
                                       "LatchkeyCrypto", "LatchkeySupport", "LatchkeyTPM", "Latchkey", "LatchkeyKeychain",
                                       "LatchkeyWebAuthn", "LatchkeyTestSupport"],
                        swiftSettings: strict),
            // The Keychain Services conformance table (docs/conformance/*.tsv, read by path) run against every Linux store.
            .testTarget(name: "KeychainConformanceTests",
                        dependencies: ["Security", "LocalAuthentication", "LatchkeyKeychainCore", "LatchkeyKeychainLinux",
                                       "LatchkeyAuthCore", "LatchkeySupport", "LatchkeyTestSupport"],
                        swiftSettings: strict),
            // Power cuts (issue 35): an SQLite VFS in C that keeps what a cut would and the harness that cuts every store's
            // operations and checks what survived (`make powercut`; a short run in `make test`). Test support: no product
            // links them.
            .target(name: "CPowercut", dependencies: ["CSQLite"], path: "Tests/Powercut/CPowercut"),
            .target(name: "LatchkeyPowercut",
                    dependencies: ["CPowercut", "CSQLite", "LatchkeyKeychainCore", "LatchkeyKeychainLinux", "LatchkeyServer",
                                   "LatchkeyCrypto", "LatchkeySupport", "LatchkeyWebAuthn"],
                    path: "Tests/Powercut/Harness", swiftSettings: strict),
            .testTarget(name: "PowercutTests", dependencies: ["LatchkeyPowercut", "LatchkeyTestSupport"], swiftSettings: strict),
        ]
    }
    if Context.environment["LATCHKEY_FUZZ"] == "1" {
        products.append(.executable(name: "latchkey-fuzz", targets: ["latchkey-fuzz"]))
        targets.append(.executableTarget(name: "latchkey-fuzz", dependencies: ["LatchkeyFuzzTargets"],
                                         path: "Tests/Fuzz/Driver", swiftSettings: strict))
    }
}

// Apple's documented signatures of every Security, LocalAuthentication, CryptoKit, CommonCrypto and
// AuthenticationServices symbol the package calls or its Linux modules provide, as typed bindings
// (Tests/ApplePinTests): the same files compile against Apple's SDK, where the frameworks need no dependency.
targets.append(.testTarget(name: "ApplePinTests",
                           dependencies: linuxHost
                               ? ["Security", "LocalAuthentication", "CryptoKit", "CommonCrypto", "AuthenticationServices",
                                  "DeviceCheck"] : [],
                           swiftSettings: strict))

let package = Package(
    name: "Latchkey",
    platforms: [.macOS(.v14), .iOS(.v17), .macCatalyst(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
