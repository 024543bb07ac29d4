// Apple's LocalAuthentication framework names on Linux, over LatchkeyAuth.
#if os(Linux)
import LatchkeyAuth
#endif
