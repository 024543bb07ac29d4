#if os(Linux)
import LatchkeyAuthCore
import LatchkeyAuthLinux
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication

/// `kSecUseAuthenticationContext` takes an `LAContext`: the keychain uses the Latchkey context it wraps.
extension LAContext: AuthenticationContextConvertible {}
#endif
