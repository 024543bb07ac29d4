extension Accessibility {
    /// The case's position in declaration order (the tag of a no-payload enum; a test checks it matches
    /// `allCases`, which builds an array on every call).
    package var tag: UInt8 { withUnsafeBytes(of: self) { $0[0] } }
}

extension ItemClass {
    /// The case's position in declaration order (as `Accessibility.tag`).
    package var tag: UInt8 { withUnsafeBytes(of: self) { $0[0] } }
}

extension ItemClass {
    /// `rawValue` as a static string (4 bytes of UTF-8; no `String` to make).
    package var rawValueUTF8: StaticString {
        switch self {
        case .genericPassword: "genp"
        case .internetPassword: "inet"
        case .key: "keys"
        case .certificate: "cert"
        case .identity: "idnt"
        }
    }
}
