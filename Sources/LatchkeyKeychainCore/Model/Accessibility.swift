/// When an item can be read (`kSecAttrAccessible`, stored under "pdmn"), with Apple's raw values.
///
/// On Linux the device lock is the vault lock: `FileVault.lock()` plays the locked screen and
/// the first `unlock` of the process plays the first unlock after boot.
public enum Accessibility: String, Sendable, Hashable, CaseIterable, Codable {
    /// `kSecAttrAccessibleWhenUnlocked` ("ak"): readable only while unlocked. The default.
    case whenUnlocked = "ak"
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` ("aku").
    case whenUnlockedThisDeviceOnly = "aku"
    /// `kSecAttrAccessibleAfterFirstUnlock` ("ck"): readable after the first unlock, even when locked again.
    case afterFirstUnlock = "ck"
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` ("cku").
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` ("akpu"): as `whenUnlockedThisDeviceOnly`,
    /// and only while a passcode (on FileVault: a passphrase or OS key) protects the store.
    case whenPasscodeSetThisDeviceOnly = "akpu"
    /// `kSecAttrAccessibleAlways` ("dk", deprecated by Apple): stored and reported as "dk", protected as
    /// `afterFirstUnlock` (the nearest stricter level: a vault cannot be read before its first unlock).
    case always = "dk"
    /// `kSecAttrAccessibleAlwaysThisDeviceOnly` ("dku", deprecated by Apple): protected as
    /// `afterFirstUnlockThisDeviceOnly`.
    case alwaysThisDeviceOnly = "dku"

    /// The level used when an item is added without one (Apple's default).
    public static let `default`: Accessibility = .whenUnlocked

    /// True for the `…ThisDeviceOnly` levels: such items are left out of backups and exports.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
             .alwaysThisDeviceOnly: true
        case .whenUnlocked, .afterFirstUnlock, .always: false
        }
    }

    /// True when the item can be read only while the store is unlocked (`whenUnlocked*`, `whenPasscodeSet*`);
    /// false for `afterFirstUnlock*` and `always*`, which stay readable after the first unlock.
    public var needsUnlock: Bool {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: true
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly, .always, .alwaysThisDeviceOnly: false
        }
    }
}
