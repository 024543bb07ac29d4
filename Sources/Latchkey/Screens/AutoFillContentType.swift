/// What a text field holds, for Password AutoFill: the user name, the password of an existing account, or a new
/// password (AutoFill suggests a strong one and offers to save it). A form model says it per field; LatchkeyUI applies
/// it with SwiftUI's `.textContentType` (`UITextContentType` / `NSTextContentType`). Without it, AutoFill neither fills
/// the fields from the app's saved passwords nor saves what the user typed.
public enum AutoFillContentType: String, Sendable, Hashable, CaseIterable {
    /// `.username`.
    case username
    /// `.password`: filled from a saved password.
    case password
    /// `.newPassword`: a strong password suggested and saved.
    case newPassword
}
