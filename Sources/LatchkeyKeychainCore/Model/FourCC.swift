/// Four bytes as one integer: the raw values of item classes and attribute keys are all four ASCII letters,
/// so a decoder finds the case by one integer lookup instead of comparing a `String` with every raw value.
package struct FourCC: Hashable, Sendable {
    package let value: UInt32

    package init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        value = UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
    }

    /// The raw value's four bytes; nil when it has another length.
    package init?(_ rawValue: String) {
        let utf8 = Array(rawValue.utf8)
        guard utf8.count == 4 else { return nil }
        self.init(utf8[0], utf8[1], utf8[2], utf8[3])
    }
}

extension AttributeKey {
    /// The key whose raw value is these four bytes (as `init(rawValue:)`).
    package init?(fourCC: FourCC) {
        guard let key = Self.byFourCC[fourCC] else { return nil }
        self = key
    }

    private static let byFourCC: [FourCC: AttributeKey] = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { key in FourCC(key.rawValue).map { ($0, key) } })
}

extension ItemClass {
    /// The class whose raw value is these four bytes (as `init(rawValue:)`).
    package init?(fourCC: FourCC) {
        switch fourCC {
        case Self.genp: self = .genericPassword
        case Self.inet: self = .internetPassword
        case Self.keys: self = .key
        case Self.cert: self = .certificate
        case Self.idnt: self = .identity
        default: return nil
        }
    }

    private static let genp = FourCC(0x67, 0x65, 0x6e, 0x70)
    private static let inet = FourCC(0x69, 0x6e, 0x65, 0x74)
    private static let keys = FourCC(0x6b, 0x65, 0x79, 0x73)
    private static let cert = FourCC(0x63, 0x65, 0x72, 0x74)
    private static let idnt = FourCC(0x69, 0x64, 0x6e, 0x74)
}
