/// An `OSStatus` result code of Keychain Services, with Apple's raw values.
///
/// The `Security` facade defines the global `errSec…` constants from these; code can compare
/// `status.rawValue` with Apple's numbers directly.
public struct KeychainStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// errSecSuccess (0).
    public static let success = KeychainStatus(0)
    /// errSecUnimplemented (-4).
    public static let unimplemented = KeychainStatus(-4)
    /// errSecDiskFull (-34).
    public static let diskFull = KeychainStatus(-34)
    /// errSecIO (-36).
    public static let io = KeychainStatus(-36)
    /// errSecParam (-50).
    public static let param = KeychainStatus(-50)
    /// errSecAllocate (-108).
    public static let allocate = KeychainStatus(-108)
    /// errSecUserCanceled (-128).
    public static let userCanceled = KeychainStatus(-128)
    /// errSecBadReq (-909).
    public static let badReq = KeychainStatus(-909)
    /// errSecInternalComponent (-2070).
    public static let internalComponent = KeychainStatus(-2070)
    /// errSecNotAvailable (-25291).
    public static let notAvailable = KeychainStatus(-25291)
    /// errSecReadOnly (-25292).
    public static let readOnly = KeychainStatus(-25292)
    /// errSecAuthFailed (-25293).
    public static let authFailed = KeychainStatus(-25293)
    /// errSecNoSuchKeychain (-25294).
    public static let noSuchKeychain = KeychainStatus(-25294)
    /// errSecInvalidKeychain (-25295).
    public static let invalidKeychain = KeychainStatus(-25295)
    /// errSecDuplicateItem (-25299).
    public static let duplicateItem = KeychainStatus(-25299)
    /// errSecItemNotFound (-25300).
    public static let itemNotFound = KeychainStatus(-25300)
    /// errSecBufferTooSmall (-25301).
    public static let bufferTooSmall = KeychainStatus(-25301)
    /// errSecDataTooLarge (-25302).
    public static let dataTooLarge = KeychainStatus(-25302)
    /// errSecNoSuchAttr (-25303).
    public static let noSuchAttr = KeychainStatus(-25303)
    /// errSecInteractionNotAllowed (-25308).
    public static let interactionNotAllowed = KeychainStatus(-25308)
    /// errSecReadOnlyAttr (-25309).
    public static let readOnlyAttr = KeychainStatus(-25309)
    /// errSecInteractionRequired (-25315).
    public static let interactionRequired = KeychainStatus(-25315)
    /// errSecDataNotAvailable (-25316).
    public static let dataNotAvailable = KeychainStatus(-25316)
    /// errSecDecode (-26275).
    public static let decode = KeychainStatus(-26275)
    /// errSecMissingEntitlement (-34018).
    public static let missingEntitlement = KeychainStatus(-34018)
    /// errSecInvalidData (-67673).
    public static let invalidData = KeychainStatus(-67673)

    /// The constant's name, e.g. "errSecItemNotFound", or the number for codes without one here.
    public var name: String {
        switch rawValue {
        case 0: "errSecSuccess"
        case -4: "errSecUnimplemented"
        case -34: "errSecDiskFull"
        case -36: "errSecIO"
        case -50: "errSecParam"
        case -108: "errSecAllocate"
        case -128: "errSecUserCanceled"
        case -909: "errSecBadReq"
        case -2070: "errSecInternalComponent"
        case -25291: "errSecNotAvailable"
        case -25292: "errSecReadOnly"
        case -25293: "errSecAuthFailed"
        case -25294: "errSecNoSuchKeychain"
        case -25295: "errSecInvalidKeychain"
        case -25299: "errSecDuplicateItem"
        case -25300: "errSecItemNotFound"
        case -25301: "errSecBufferTooSmall"
        case -25302: "errSecDataTooLarge"
        case -25303: "errSecNoSuchAttr"
        case -25308: "errSecInteractionNotAllowed"
        case -25309: "errSecReadOnlyAttr"
        case -25315: "errSecInteractionRequired"
        case -25316: "errSecDataNotAvailable"
        case -26275: "errSecDecode"
        case -34018: "errSecMissingEntitlement"
        case -67673: "errSecInvalidData"
        default: "OSStatus \(rawValue)"
        }
    }

    public var description: String { "\(name) (\(rawValue))" }
}
