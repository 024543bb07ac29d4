#if os(Linux)
import LatchkeyAuth
import LatchkeyKeychain
import LocalAuthentication

/// `kSecUseAuthenticationContext` takes an `LAContext`: the keychain uses the Latchkey context it wraps.
extension LAContext: AuthenticationContextConvertible {}
#endif
