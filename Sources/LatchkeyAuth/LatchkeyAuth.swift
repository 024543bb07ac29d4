/// LatchkeyAuth: LocalAuthentication semantics (policies, biometry, lockout, reuse, domain state) with the
/// platform's backend — `LAContext` where Apple's frameworks are used (`AppleAuthenticationContext`), PAM and
/// fprintd on Linux (`PAMAuthenticator`) — and the portable core (`LatchkeyAuthCore`: the model, Apple's
/// rules in `DeviceOwnerContext`, the simulated sensor) that both share.
@_exported import LatchkeyAuthCore
#if !LATCHKEY_APPLE_FRAMEWORKS
@_exported import LatchkeyAuthLinux
#endif
