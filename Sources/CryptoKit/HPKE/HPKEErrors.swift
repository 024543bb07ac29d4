import Foundation

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension HPKE {
    /// Why an HPKE context could not be set up or used (authentication failures are
    /// `CryptoKitError.authenticationFailure`, as for the AEADs themselves).
    public enum Errors: Error, Hashable {
        /// A key or an encapsulated key is not valid for the ciphersuite (a point off the curve, a wrong length).
        case inconsistentParameters
        /// A key of one curve with a ciphersuite of another.
        case inconsistentCiphersuiteAndKey
        /// `seal` or `open` on an export-only context.
        case exportOnlyMode
        /// A pre-shared key without its identifier, or an identifier without the key.
        case inconsistentPSKInputs
        /// A PSK mode without a pre-shared key.
        case expectedPSK
        /// A pre-shared key in a mode that takes none.
        case unexpectedPSK
        /// The context sealed or opened as many messages as its nonce can count.
        case outOfRangeSequenceNumber
        /// A ciphertext shorter than the AEAD's tag.
        case ciphertextTooShort
    }
}
