import LatchkeyAuth
import LatchkeyCrypto

extension BiometryType {
    /// The name to show: "Face ID", "Touch ID", "Optic ID" (brand names, the same in every language);
    /// "Passcode" / "암호" without biometry.
    public var displayName: String { displayName(in: .current) }

    /// The name to show, in `language`.
    public func displayName(in language: MessageLanguage) -> String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "Touch ID"
        case .opticID: "Optic ID"
        case .none: language.pick(english: "Passcode", korean: "암호")
        }
    }

    /// A button title: "Unlock with Face ID" / "Face ID로 잠금 해제"; "Unlock with Passcode" / "암호로 잠금 해제"
    /// without biometry.
    public func unlockTitle(in language: MessageLanguage) -> String {
        let name = displayName(in: language)
        return language.pick(english: "Unlock with \(name)", korean: "\(name)로 잠금 해제")
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
