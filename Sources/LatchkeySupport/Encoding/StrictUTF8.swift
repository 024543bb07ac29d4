extension String {
    /// The text `bytes` spell in UTF-8, or nil when they are not valid UTF-8: never repaired, unlike
    /// `String(decoding:as:)`.
    ///
    /// `String(validating:as:)` needs macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2, above the package's
    /// floor; below it, `decodingWithoutRepair(_:)` gives the same answer.
    @inlinable
    package init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        } else {
            guard let text = String.decodingWithoutRepair(bytes) else { return nil }
            self = text
        }
    }

    /// `String(validating: bytes, as: UTF8.self)` for systems without it: the bytes are decoded and must read
    /// back unchanged. Repair replaces each invalid sequence by U+FFFD, whose bytes (EF BF BD, valid UTF-8)
    /// differ from the invalid ones they replace, so only valid input reads back. Contiguous storage (Data,
    /// arrays, buffers) is compared in place: about as many instructions as `String(validating:as:)`
    /// (callgrind: 1,526 against 1,489 per call on short keychain attributes; Foundation's
    /// `String(bytes:encoding:)` took 2,345).
    @inlinable
    package static func decodingWithoutRepair(_ bytes: some Collection<UInt8>) -> String? {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer -> String? in
            let text = String(decoding: buffer, as: UTF8.self)
            return text.utf8.elementsEqual(buffer) ? text : nil
        }) {
            return result
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
