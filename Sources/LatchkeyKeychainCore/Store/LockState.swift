/// The device-lock analogue a store applies to accessibility levels.
public struct LockState: Sendable, Hashable {
    /// True while the store is locked (the screen is locked).
    public var isLocked: Bool
    /// True once the store has been unlocked in this process (the first unlock after boot).
    public var hasBeenUnlocked: Bool
    /// True when a passcode (a passphrase or an OS key) protects the store; `whenPasscodeSet…` needs it.
    public var passcodeSet: Bool

    /// Creates a lock state.
    public init(isLocked: Bool, hasBeenUnlocked: Bool, passcodeSet: Bool = true) {
        self.isLocked = isLocked
        self.hasBeenUnlocked = hasBeenUnlocked
        self.passcodeSet = passcodeSet
    }

    /// Whether an item with this accessibility can be read or written now.
    public func permits(_ level: Accessibility) -> Bool {
        if level == .whenPasscodeSetThisDeviceOnly && !passcodeSet { return false }
        if !isLocked { return true }
        return !level.needsUnlock && hasBeenUnlocked
    }

    /// errSecInteractionNotAllowed (reason `.locked`) unless `permits(level)`; errSecNotAvailable for
    /// `whenPasscodeSetThisDeviceOnly` without a passcode.
    public func check(_ level: Accessibility) throws(KeychainStoreError) {
        if level == .whenPasscodeSetThisDeviceOnly && !passcodeSet { throw KeychainStoreError(.notAvailable) }
        guard permits(level) else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
    }
}
