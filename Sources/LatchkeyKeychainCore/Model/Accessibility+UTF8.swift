extension Accessibility {
    /// The level whose raw value is these UTF-8 bytes (as `init(rawValue:)`, read straight from a column's
    /// bytes: no `String` is made and no raw value is compared as a string).
    package init?(utf8 bytes: UnsafeRawBufferPointer) {
        func byte(_ i: Int) -> UInt8 { bytes[i] }
        let a = UInt8(ascii: "a"), c = UInt8(ascii: "c"), d = UInt8(ascii: "d"), k = UInt8(ascii: "k")
        let p = UInt8(ascii: "p"), u = UInt8(ascii: "u")
        guard bytes.count >= 2, byte(1) == k else { return nil }
        switch (bytes.count, byte(0)) {
        case (2, a): self = .whenUnlocked
        case (2, c): self = .afterFirstUnlock
        case (2, d): self = .always
        case (3, a) where byte(2) == u: self = .whenUnlockedThisDeviceOnly
        case (3, c) where byte(2) == u: self = .afterFirstUnlockThisDeviceOnly
        case (3, d) where byte(2) == u: self = .alwaysThisDeviceOnly
        case (4, a) where byte(2) == p && byte(3) == u: self = .whenPasscodeSetThisDeviceOnly
        default: return nil
        }
    }
}
