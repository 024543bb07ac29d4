import Foundation
#if canImport(MachO)
import MachO  // _dyld_image_count, _dyld_get_image_name
#endif

/// Asks whether a URL scheme can be opened (on iOS: `UIApplication.shared.canOpenURL`).
/// The app supplies it, because only an app with the scheme in `LSApplicationQueriesSchemes` may ask.
public protocol URLSchemeChecker: Sendable {
    /// True when a URL with this scheme (e.g. "cydia") can be opened.
    func canOpen(scheme: String) -> Bool
}

/// Jailbreak signals on an Apple device, as raw facts. Gathering is iOS-only; deciding is portable
/// (`IntegrityCheck.evaluate(_:)`), so it is tested everywhere.
public struct JailbreakEvidence: Sendable, Hashable {
    /// Jailbreak-only files that exist.
    public var existingJailbreakFiles: [String]
    /// Package-manager URL schemes that can be opened.
    public var openableSchemes: [String]
    /// Paths outside the sandbox that could be written.
    public var writableSystemPaths: [String]
    /// Names of the loaded images (`_dyld_get_image_name`).
    public var loadedImages: [String]
    /// Whether `fork()` succeeded.
    public var forkSucceeded: Bool

    /// Creates evidence from given facts.
    public init(existingJailbreakFiles: [String] = [], openableSchemes: [String] = [],
                writableSystemPaths: [String] = [], loadedImages: [String] = [], forkSucceeded: Bool = false) {
        self.existingJailbreakFiles = existingJailbreakFiles
        self.openableSchemes = openableSchemes
        self.writableSystemPaths = writableSystemPaths
        self.loadedImages = loadedImages
        self.forkSucceeded = forkSucceeded
    }

    /// Files present only on jailbroken devices.
    public static let knownJailbreakFiles = [
        "/Applications/Cydia.app", "/Applications/Sileo.app", "/Applications/Zebra.app",
        "/Library/MobileSubstrate/MobileSubstrate.dylib", "/bin/bash", "/usr/sbin/sshd", "/etc/apt",
        "/private/var/lib/apt/", "/usr/bin/ssh", "/var/jb", "/.bootstrapped", "/.installed_unc0ver",
    ]
    /// URL schemes registered by jailbreak package managers.
    public static let knownSchemes = ["cydia", "sileo", "zbra", "filza", "undecimus"]
    /// Paths an app must not be able to write.
    public static let protectedPaths = ["/private/latchkey-jailbreak-probe"]

    #if os(iOS)
    /// Gathers the evidence on this device. `schemes` checks URL schemes; `nil` skips that signal.
    public static func gather(schemes: (any URLSchemeChecker)?) -> JailbreakEvidence {
        let files = knownJailbreakFiles.filter { FileManager.default.fileExists(atPath: $0) }
        let openable = schemes.map { checker in knownSchemes.filter { checker.canOpen(scheme: $0) } } ?? []
        var writable: [String] = []
        for path in protectedPaths {
            if (try? Data("x".utf8).write(to: URL(fileURLWithPath: path))) != nil {
                writable.append(path)
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        var images: [String] = []
        for index in 0..<_dyld_image_count() {
            if let name = _dyld_get_image_name(index) { images.append(String(cString: name)) }
        }
        return JailbreakEvidence(existingJailbreakFiles: files, openableSchemes: openable,
                                 writableSystemPaths: writable, loadedImages: images, forkSucceeded: forkProbe())
    }

    private static func forkProbe() -> Bool {
        // fork is marked unavailable in Swift on iOS; look it up dynamically. The sandbox makes it fail.
        typealias ForkFunction = @convention(c) () -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "fork") else { return false }
        let pid = unsafeBitCast(symbol, to: ForkFunction.self)()
        if pid == 0 { _exit(0) }
        return pid > 0
    }
    #endif
}
