import LatchkeyAuth
import LatchkeyCrypto

extension BiometryType {
    /// The name to show: "Face ID", "Touch ID", "Optic ID" (brand names, the same in every language);
    /// "Passcode" / "암호" without biometry.
    public var displayName: String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "Touch ID"
        case .opticID: "Optic ID"
        case .none: MessageLanguage.current.pick(english: "Passcode", korean: "암호")
        }
    }

    /// The SF Symbol: "faceid", "touchid", "opticid"; "lock" without biometry.
    public var systemImageName: String {
        switch self {
        case .faceID: "faceid"
        case .touchID: "touchid"
        case .opticID: "opticid"
        case .none: "lock"
        }
    }
}
