#if canImport(CKeyutils)
import CKeyutils
import Foundation
import LatchkeyKeychainCore

/// Keeps keys in the Linux kernel's per-user keyring (`keyctl`), through libkeyutils' typed functions.
///
/// A cache, not storage: the user keyring lives in kernel memory and is gone after a reboot (or after
/// ``timeout``). Keys are created in the process keyring, given user-level permissions, linked into the
/// user keyring and unlinked from the process keyring, so that later processes of the same user can read
/// them even if they do not "possess" the user keyring (services, `keyctl session`).
public struct KernelKeyringProvider: OSKeyProvider {
    public let name = "kernel-keyring"
    /// Seconds after which the kernel discards a stored key; nil keeps it until reboot or deletion.
    public let timeout: UInt32?
    /// Prefix of the key descriptions (`<prefix><id>`), type `user`.
    public let descriptionPrefix: String

    /// A provider whose keys expire after `timeout` seconds (nil: never).
    public init(timeout: UInt32? = nil, descriptionPrefix: String = "latchkey:vault:") {
        self.timeout = timeout
        self.descriptionPrefix = descriptionPrefix
    }

    public var isAvailable: Bool {
        // Asking for the user keyring's id without creating anything tells whether keyctl is allowed here.
        keyctl_get_keyring_ID(KEY_SPEC_USER_KEYRING, 0) >= 0
    }

    public func loadKey(id: String) throws -> Data? {
        guard let serial = try find(id: id) else { return nil }
        var buffer: UnsafeMutableRawPointer?
        let length = keyctl_read_alloc(serial, &buffer)
        guard length >= 0, let buffer else {
            let code = errno
            if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(code) { return nil }
            throw OSKeyProviderError.systemError(provider: name, operation: "keyctl_read", errno: code)
        }
        defer {
            memset(buffer, 0, Int(length))
            free(buffer)
        }
        return Data(bytes: buffer, count: Int(length))
    }

    public func storeKey(_ key: Data, id: String) throws {
        let description = descriptionPrefix + id
        let serial: key_serial_t = key.withUnsafeBytes { bytes in
            add_key("user", description, bytes.baseAddress, bytes.count, KEY_SPEC_PROCESS_KEYRING)
        }
        guard serial >= 0 else { throw systemError("add_key") }
        // From here on, never leave the key behind in a half-set-up state.
        var linked = false
        defer {
            if !linked { _ = keyctl_invalidate(serial) }
            _ = keyctl_unlink(serial, KEY_SPEC_PROCESS_KEYRING)
        }
        guard keyctl_setperm(serial, key_perm_t(KEY_POS_ALL | KEY_USR_ALL)) == 0 else {
            throw systemError("keyctl_setperm")
        }
        if let timeout, timeout > 0 {
            guard keyctl_set_timeout(serial, timeout) == 0 else { throw systemError("keyctl_set_timeout") }
        }
        guard keyctl_link(serial, KEY_SPEC_USER_KEYRING) == 0 else { throw systemError("keyctl_link") }
        linked = true
    }

    public func deleteKey(id: String) throws {
        while let serial = try find(id: id) {
            if keyctl_invalidate(serial) != 0, keyctl_unlink(serial, KEY_SPEC_USER_KEYRING) != 0 {
                let code = errno
                if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(code) { return }
                throw OSKeyProviderError.systemError(provider: name, operation: "keyctl_invalidate", errno: code)
            }
        }
    }

    private func find(id: String) throws -> key_serial_t? {
        let serial = keyctl_search(KEY_SPEC_USER_KEYRING, "user", descriptionPrefix + id, 0)
        if serial >= 0 { return key_serial_t(serial) }
        let code = errno
        if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(code) { return nil }
        throw OSKeyProviderError.systemError(provider: name, operation: "keyctl_search", errno: code)
    }

    private func systemError(_ operation: String) -> OSKeyProviderError {
        .systemError(provider: name, operation: operation, errno: errno)
    }
}
#endif
