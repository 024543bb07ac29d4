#if os(Linux)
import Foundation

/// `ASPasswordCredential`: a user name and the password saved for it, as the authorization sheet hands them over
/// (send them to your server's password sign-in). Neither `description` nor `dump` shows the password.
@available(iOS 12.0, macOS 10.15, tvOS 15.0, watchOS 6.0, *)
open class ASPasswordCredential: NSObject, ASAuthorizationCredential {
    /// The user name.
    open var user: String { storedUser }
    /// The password.
    open var password: String { storedPassword }

    private let storedUser: String
    private let storedPassword: String

    /// A credential of `user` and `password`.
    public init(user: String, password: String) {
        storedUser = user
        storedPassword = password
        super.init()
    }
}

extension ASPasswordCredential: CustomReflectable {
    /// The user name only, so `dump` and debuggers never print the password.
    public var customMirror: Mirror { Mirror(self, children: ["user": user], displayStyle: .class) }
}
#endif
